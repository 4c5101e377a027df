import { SseDecoder } from "./sse";

/** The usage the gateway sends in the stream's last chunk (OpenAI's fields plus OpenRouter's cost). */
export interface StreamUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  reasoningTokens: number;
  cachedTokens: number;
  /** USD charged to the account's credits. */
  cost: number;
}

/** One assistant reply as the stream has built it so far. */
export interface ReplyState {
  generationId: string | undefined;
  model: string | undefined;
  provider: string | undefined;
  text: string;
  finishReason: string | undefined;
  usage: StreamUsage | undefined;
  /** An error the gateway sent inside the stream (after the 200 had gone out). */
  error: string | undefined;
  /** `[DONE]` arrived. */
  done: boolean;
}

export const EMPTY_REPLY: ReplyState = {
  generationId: undefined,
  model: undefined,
  provider: undefined,
  text: "",
  finishReason: undefined,
  usage: undefined,
  error: undefined,
  done: false,
};

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}

function readUsage(value: unknown): StreamUsage | undefined {
  if (!isObject(value)) return undefined;
  const prompt = isObject(value.prompt_tokens_details) ? value.prompt_tokens_details : {};
  const completion = isObject(value.completion_tokens_details) ? value.completion_tokens_details : {};
  return {
    promptTokens: count(value.prompt_tokens),
    completionTokens: count(value.completion_tokens),
    totalTokens: count(value.total_tokens),
    reasoningTokens: count(completion.reasoning_tokens),
    cachedTokens: count(prompt.cached_tokens),
    cost: count(value.cost),
  };
}

function deltaText(choices: unknown): { content: string; finishReason: string | undefined } {
  let content = "";
  let finishReason: string | undefined;
  if (!Array.isArray(choices)) return { content, finishReason };
  for (const choice of choices) {
    if (!isObject(choice)) continue;
    const delta = isObject(choice.delta) ? choice.delta : {};
    content += text(delta.content) ?? "";
    finishReason = text(choice.finish_reason) ?? finishReason;
  }
  return { content, finishReason };
}

/** Folds one SSE event's data (a chunk's JSON, or `[DONE]`) into the reply. Pure: returns a new state. */
export function applyEvent(state: ReplyState, data: string): ReplyState {
  if (data.trim() === "[DONE]") return { ...state, done: true };
  let chunk: unknown;
  try {
    chunk = JSON.parse(data);
  } catch {
    return { ...state, error: "The gateway sent a chunk that is not JSON; the reply is incomplete." };
  }
  if (!isObject(chunk)) return state;
  const { content, finishReason } = deltaText(chunk.choices);
  const streamError = isObject(chunk.error) ? (text(chunk.error.message) ?? "The stream failed.") : undefined;
  return {
    generationId: state.generationId ?? text(chunk.id),
    model: text(chunk.model) ?? state.model,
    provider: text(chunk.provider) ?? state.provider,
    text: state.text + content,
    finishReason: finishReason ?? state.finishReason,
    usage: readUsage(chunk.usage) ?? state.usage,
    error: streamError ?? state.error,
    done: state.done,
  };
}

/**
 * Reads a chat-completions SSE body to its end, calling `onUpdate` after every network piece that
 * changed the reply (so the text appears token by token). Resolves with the final reply; an abort
 * (the stop button) rejects with the signal's AbortError, which the caller treats as "stopped".
 */
export async function readChatStream(
  body: ReadableStream<Uint8Array>,
  onUpdate: (reply: ReplyState) => void,
): Promise<ReplyState> {
  const decoder = new SseDecoder();
  const utf8 = new TextDecoder();
  const reader = body.getReader();
  let reply = EMPTY_REPLY;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      const piece = done ? utf8.decode() : utf8.decode(value, { stream: true });
      const before = reply;
      for (const event of decoder.push(piece)) reply = applyEvent(reply, event);
      if (reply !== before) onUpdate(reply);
      if (done) break;
    }
  } finally {
    decoder.end();
    reader.releaseLock();
  }
  return reply;
}
