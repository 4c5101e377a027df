import type { TokenUsage } from "../canonical/tokens.js";
import { type UsageWire, usageFromWire } from "../canonical/wire.js";
import type { ApiFormat } from "../providers/types.js";
import { type AnthropicUsageWire, usageFromAnthropic } from "../translate/anthropic/to-openai.js";
import { type GeminiUsageWire, usageFromGemini } from "../translate/gemini/to-openai.js";

type Json = Record<string, unknown>;

/** A non-streamed body larger than this is passed through but not parsed (its usage is then unknown). */
const MAX_PARSED_BYTES = 16 * 1024 * 1024;

/**
 * Reads a native response's usage as its bytes go by, without holding the response back: SSE frames are
 * parsed line by line (OpenAI's usage chunk, Anthropic's message_start + message_delta, Gemini's
 * usageMetadata), any other body is collected (up to 16 MB) and parsed as JSON at the end — a JSON array
 * too, which is how Gemini streams without `alt=sse`.
 */
export class NativeUsageScanner {
  private readonly decoder = new TextDecoder();
  private pending = "";
  private readonly chunks: Buffer[] = [];
  private collected = 0;
  private anthropic: AnthropicUsageWire = {};
  private latest: TokenUsage | undefined;

  constructor(
    private readonly format: ApiFormat,
    private readonly streamed: boolean,
  ) {}

  push(chunk: Buffer): void {
    if (!this.streamed) {
      this.collected += chunk.length;
      if (this.collected <= MAX_PARSED_BYTES) this.chunks.push(chunk);
      return;
    }
    this.pending += this.decoder.decode(chunk, { stream: true });
    const lines = this.pending.split("\n");
    this.pending = lines.pop() ?? "";
    for (const line of lines) this.line(line);
  }

  /** The usage the provider reported, once the body has ended; undefined when it reported none. */
  finish(): TokenUsage | undefined {
    if (this.streamed) {
      this.line(this.pending + this.decoder.decode());
      return this.latest;
    }
    if (this.collected > MAX_PARSED_BYTES) return undefined;
    const parsed = parseJson(Buffer.concat(this.chunks).toString("utf8"));
    for (const item of Array.isArray(parsed) ? parsed : [parsed]) this.object(item);
    return this.latest;
  }

  private line(line: string): void {
    const trimmed = line.trim();
    if (!trimmed.startsWith("data:")) return;
    this.object(parseJson(trimmed.slice(5).trim()));
  }

  private object(value: unknown): void {
    if (!isObject(value)) return;
    const found = this.usageOf(value);
    if (found) this.latest = found;
  }

  private usageOf(value: Json): TokenUsage | undefined {
    if (this.format === "gemini") return usageFromGemini(objectAt(value, "usageMetadata") as GeminiUsageWire);
    if (this.format === "anthropic") return this.anthropicUsage(value);
    return openAiUsage(value);
  }

  /** A Message's usage, or a stream's: input counts in message_start, cumulative output in message_delta. */
  private anthropicUsage(value: Json): TokenUsage | undefined {
    const usage = objectAt(value, "usage") ?? objectAt(objectAt(value, "message"), "usage");
    if (!usage) return undefined;
    for (const [name, count] of Object.entries(usage))
      if (typeof count === "number") (this.anthropic as Record<string, number>)[name] = count;
    return usageFromAnthropic(this.anthropic);
  }
}

/** Chat Completions' `usage`, or the Responses API's (`input_tokens`/`output_tokens`, in `response.completed` when streamed). */
function openAiUsage(value: Json): TokenUsage | undefined {
  const usage = objectAt(value, "usage") ?? objectAt(objectAt(value, "response"), "usage");
  if (!usage) return undefined;
  const chat = usageFromWire(usage as UsageWire);
  if (chat) return chat;
  const input = numberAt(usage, "input_tokens");
  const output = numberAt(usage, "output_tokens");
  if (input === undefined && output === undefined) return undefined;
  return {
    promptTokens: input ?? 0,
    completionTokens: output ?? 0,
    cachedTokens: numberAt(objectAt(usage, "input_tokens_details"), "cached_tokens") ?? 0,
    cacheWriteTokens: 0,
    reasoningTokens: numberAt(objectAt(usage, "output_tokens_details"), "reasoning_tokens") ?? 0,
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function objectAt(value: Json | undefined, key: string): Json | undefined {
  const found = value?.[key];
  return isObject(found) ? found : undefined;
}

function numberAt(value: Json | undefined, key: string): number | undefined {
  const found = value?.[key];
  return typeof found === "number" ? found : undefined;
}
