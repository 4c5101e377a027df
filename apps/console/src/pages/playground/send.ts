import { ApiError, problemFromNetworkError, problemFromResponse } from "../../api/errors";
import { type ReplyState, readChatStream } from "./chat-stream";

export interface ChatTurn {
  role: "user" | "assistant";
  content: string;
}

/** The playground's optional settings as typed ("" = the model's default). */
export interface ChatSettings {
  system: string;
  temperature: string;
  maxTokens: string;
}

export const DEFAULT_SETTINGS: ChatSettings = { system: "", temperature: "", maxTokens: "" };

/** Why a setting cannot be sent (the API's own bounds), or undefined when all can. */
export function settingsProblem(settings: ChatSettings): string | undefined {
  const temperature = settings.temperature.trim();
  if (temperature !== "") {
    const value = Number(temperature);
    if (!Number.isFinite(value) || value < 0 || value > 2) return "Temperature: a number from 0 to 2.";
  }
  const maxTokens = settings.maxTokens.trim();
  if (maxTokens !== "" && !/^[1-9]\d{0,6}$/.test(maxTokens)) return "Max tokens: a whole number from 1.";
  return undefined;
}

/**
 * The chat request's body: the system prompt first when there is one, and only the parameters that
 * were set (an absent one keeps the model's default).
 */
export function chatBody(model: string, messages: ChatTurn[], settings: ChatSettings = DEFAULT_SETTINGS) {
  const system = settings.system.trim();
  const temperature = settings.temperature.trim();
  const maxTokens = settings.maxTokens.trim();
  return {
    model,
    messages: system ? [{ role: "system" as const, content: system }, ...messages] : messages,
    ...(temperature !== "" ? { temperature: Number(temperature) } : {}),
    ...(maxTokens !== "" ? { max_tokens: Number(maxTokens) } : {}),
    stream: true,
    // The usage (tokens and cost) arrives in the final chunk, before [DONE].
    stream_options: { include_usage: true },
  };
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
  settings?: ChatSettings;
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
      body: JSON.stringify(chatBody(options.model, options.messages, options.settings)),
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
