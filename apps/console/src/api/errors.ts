/**
 * What went wrong with a call to the gateway, in the words the console shows. The gateway's management
 * routes answer errors as `{error: {message, type, code: <HTTP status>, metadata?: {reason, field, …}}}`;
 * the console shows the API's own message and adds what to do for the statuses a user can act on.
 */
export interface ApiProblem {
  /** HTTP status; 0 when the gateway could not be reached at all. */
  status: number;
  /** The API's own `error.message` (or a plain description when the answer had none). */
  message: string;
  /** The gateway's reason code (`error.metadata.reason`), e.g. `management_key_required`. */
  reason: string | undefined;
  /** The request field a 400 names (`error.metadata.field`), for showing the message beside it. */
  field: string | undefined;
  /** Seconds from `Retry-After`, when the answer carried one. */
  retryAfterSeconds: number | undefined;
  /** Whose limit refused it (`error.metadata.limit_source`: `key`, `account`, …), for 402 and 429. */
  limitSource?: string | undefined;
  /** What a refused request got wrong, item by item (`error.metadata.problems`, e.g. a catalogue import). */
  problems?: string[] | undefined;
}

export const SESSION_ENDED_MESSAGE = "Your session has ended; sign in again.";

/** Builds the problem from an error answer: its status, headers and (already parsed) body. */
export function problemFromResponse(status: number, headers: Headers, body: unknown): ApiProblem {
  const error = errorObject(body);
  const metadata = recordOf(error?.metadata);
  return {
    status,
    message: stringOf(error?.message) ?? `The gateway answered ${status}${statusText(status)}.`,
    reason: stringOf(metadata?.reason) ?? stringOf(error?.code),
    field: stringOf(metadata?.field),
    retryAfterSeconds: parseRetryAfter(headers.get("retry-after"), Date.now()),
    limitSource: stringOf(metadata?.limit_source),
    problems: problemsOf(metadata?.problems),
  };
}

/** `metadata.problems` as lines: strings as they are, objects as `path: message` when they have them. */
function problemsOf(value: unknown): string[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  return value.map((item) => {
    if (typeof item === "string") return item;
    const record = recordOf(item);
    const message = stringOf(record?.message);
    const where = stringOf(record?.path) ?? stringOf(record?.field) ?? stringOf(record?.model);
    if (message) return where ? `${where}: ${message}` : message;
    return JSON.stringify(item);
  });
}

/** The problem for a request that never got an answer (network down, CORS, aborted). */
export function problemFromNetworkError(cause: unknown): ApiProblem {
  const detail = cause instanceof Error && cause.message ? ` (${cause.message})` : "";
  return {
    status: 0,
    message: `The gateway could not be reached${detail}. Check your connection and try again.`,
    reason: undefined,
    field: undefined,
    retryAfterSeconds: undefined,
  };
}

/**
 * `Retry-After` is either delta-seconds or an HTTP date (RFC 9110 §10.2.3); anything else is ignored.
 * A date in the past means "now" (0 s).
 */
export function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  // An HTTP date names its weekday and zone ("Mon, 23 Nov 2026 12:00:00 GMT"); Date.parse alone would
  // also take "-5" as a year.
  if (!/^[A-Za-z]{3}, /.test(trimmed)) return undefined;
  const dateMs = Date.parse(trimmed);
  if (Number.isNaN(dateMs)) return undefined;
  return Math.max(0, Math.ceil((dateMs - nowMs) / 1000));
}

/** What the user can do about the problem, added after the API's message; undefined when nothing. */
export function adviceFor(problem: ApiProblem): string | undefined {
  switch (problem.status) {
    case 0:
      return undefined;
    case 401:
      return SESSION_ENDED_MESSAGE;
    case 402:
      return paymentAdvice(problem);
    case 429:
      return `A rate or spend limit was reached. ${retryPhrase(problem.retryAfterSeconds)}`;
    case 503:
      // Not configured is not temporary: retrying cannot help, the operator must set it up.
      if (problem.reason === "byok_not_configured")
        return "Provider keys cannot be stored until the gateway's operator sets BYOK_MASTER_KEY.";
      return `The gateway is temporarily unavailable. ${retryPhrase(problem.retryAfterSeconds)}`;
    default:
      return undefined;
  }
}

/**
 * A 402 names whose limit refused it: the key's own credit limit (`quota_exceeded`, limit_source
 * `key`) is raised on the Keys page, while the account's credits being used up needs credits.
 */
function paymentAdvice(problem: ApiProblem): string {
  if (problem.reason === "quota_exceeded" || problem.limitSource === "key")
    return "This key's credit limit is used up (the account may still have credits). Raise or reset the key's limit on the Keys page, or use another key.";
  return (
    "The account's credits are used up. Add credits (an operator grants them, or pay with a wallet " +
    "through x402), then try again."
  );
}

/** The full text for an alert: the API's message, then the advice when there is one. */
export function describeProblem(problem: ApiProblem): string {
  const advice = adviceFor(problem);
  if (advice === undefined || advice === problem.message) return problem.message;
  return `${problem.message} ${advice}`;
}

/** "Try again in 30 seconds." / "… in 2 minutes." / "Try again in a moment." */
export function retryPhrase(seconds: number | undefined): string {
  if (seconds === undefined) return "Try again in a moment.";
  if (seconds <= 1) return "Try again now.";
  if (seconds < 120) return `Try again in ${seconds} seconds.`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 120) return `Try again in ${minutes} minutes.`;
  return `Try again in ${Math.ceil(minutes / 60)} hours.`;
}

/** An ApiProblem thrown by the data hooks, so React code can tell it from a programming error. */
export class ApiError extends Error {
  readonly problem: ApiProblem;
  constructor(problem: ApiProblem) {
    super(problem.message);
    this.name = "ApiError";
    this.problem = problem;
  }
}

/** Any thrown value as a problem (an ApiError keeps its own; anything else is unexpected). */
export function problemOf(thrown: unknown): ApiProblem {
  if (thrown instanceof ApiError) return thrown.problem;
  return problemFromNetworkError(thrown);
}

function errorObject(body: unknown): Record<string, unknown> | undefined {
  const record = recordOf(body);
  return recordOf(record?.error);
}

function recordOf(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function stringOf(value: unknown): string | undefined {
  return typeof value === "string" && value.length > 0 ? value : undefined;
}

function statusText(status: number): string {
  const texts: Record<number, string> = {
    400: " (bad request)",
    401: " (not signed in)",
    402: " (payment required)",
    403: " (forbidden)",
    404: " (not found)",
    429: " (too many requests)",
    500: " (internal error)",
    502: " (bad gateway)",
    503: " (unavailable)",
  };
  return texts[status] ?? "";
}
