import { type ApiProblem, adviceFor } from "../../api/errors";

/**
 * What the playground says when the gateway refuses a chat request. The request is made with the API key
 * typed on the page, not the session's credential, so a 401 here means that key is wrong: the session
 * stays signed in and the advice is about the key.
 */
export function playgroundAdvice(problem: ApiProblem): string | undefined {
  switch (problem.status) {
    case 401:
      return "The API key was not accepted (unknown, disabled or expired). Check it, or create a key on the Keys page.";
    case 403:
      if (problem.reason === "api_key_required")
        return "This is a management key: the playground needs an API key. Create one on the Keys page (its secret is then filled in here).";
      return "The key may not use this model or its providers. Pick another model, or edit the key's allowed models and providers on the Keys page.";
    default:
      return adviceFor(problem);
  }
}

/** The alert's text: the API's own message first, then what to do. */
export function describeRefusal(problem: ApiProblem): string {
  const advice = playgroundAdvice(problem);
  if (advice === undefined || advice === problem.message) return problem.message;
  return `${sentence(problem.message)} ${advice}`;
}

/** "invalid api key" → "invalid api key.", so the advice after it reads as a new sentence. */
function sentence(text: string): string {
  return /[.!?:]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`;
}
