import { ApiError, problemFromNetworkError, problemFromResponse } from "../../api/errors";
import { type ReplyState, readChatStream } from "./chat-stream";

export interface ChatTurn {
  role: "user" | "assistant";
  content: string;
}

/**
 * Streams one chat completion through the gateway itself (`fetch`: the typed client does not stream).
 * The API key goes only in the Authorization header. A refusal before the stream starts (401/402/403/429,
 * a bad request) throws an ApiError with the API's message and Retry-After; an abort rejects with the
 * signal's AbortError.
 */
export async function streamChat(options: {
  apiKey: string;
  model: string;
  messages: ChatTurn[];
  signal: AbortSignal;
  onUpdate: (reply: ReplyState) => void;
}): Promise<ReplyState> {
  let response: Response;
  try {
    response = await fetch(`${window.location.origin}/api/v1/chat/completions`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${options.apiKey}`,
        "content-type": "application/json",
        accept: "text/event-stream",
        // Recorded as the generation's app title, so playground requests are told apart in Generations.
        "x-title": "Console playground",
      },
      body: JSON.stringify({
        model: options.model,
        messages: options.messages,
        stream: true,
        // The usage (tokens and cost) arrives in the final chunk, before [DONE].
        stream_options: { include_usage: true },
      }),
      signal: options.signal,
    });
  } catch (cause) {
    if (options.signal.aborted) throw cause;
    throw new ApiError(problemFromNetworkError(cause));
  }
  if (!response.ok || response.body === null) {
    const body: unknown = await response.json().catch(() => undefined);
    throw new ApiError(problemFromResponse(response.status, response.headers, body));
  }
  return readChatStream(response.body, options.onUpdate);
}
