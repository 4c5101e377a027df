import { estimateTokens, truncateToTokens } from "./tokens.js";

export interface ReplyOptions {
  /** Demo mode: the text says plainly that this is Model Gateway's built-in demo, not a model. */
  readonly demo: boolean;
}

/** The deterministic answer to the last user text: an echo, so tests can predict every byte. */
export function replyText(lastUserText: string, options: ReplyOptions): string {
  const said = lastUserText.trim() === "" ? "(no text)" : lastUserText.trim();
  if (options.demo) {
    return `This is the built-in demo provider of Model Gateway, not a real model. You said: ${said}`;
  }
  return `Echo: ${said}`;
}

/** The answer after a tool result comes back, so multi-turn tool tests see the result used. */
export function toolResultReply(result: string, options: ReplyOptions): string {
  return replyText(`Tool result received: ${result}`, options);
}

export interface Limited {
  readonly text: string;
  /** True when the token limit cut the text (the provider's "length"/"max_tokens" finish). */
  readonly truncated: boolean;
}

export function limitReply(text: string, maxTokens: number | undefined): Limited {
  if (maxTokens === undefined || estimateTokens(text) <= maxTokens) return { text, truncated: false };
  return { text: truncateToTokens(text, maxTokens), truncated: true };
}

/** Splits text into word-sized stream pieces that concatenate back to the original. */
export function streamPieces(text: string): string[] {
  return text.match(/\s*\S+|\s+$/g) ?? [];
}

/** Splits a string into `count` nearly equal consecutive pieces (tool-argument streaming). */
export function splitEvenly(text: string, count: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / count));
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}

/** Tool use is deterministic: a request that offers tools and mentions the weather gets a tool call. */
export function asksForTool(text: string): boolean {
  return /weather/i.test(text);
}

/**
 * Arguments for a tool call, built from the tool's JSON schema: a place named in the text ("in Paris") fills
 * string properties that look like places, other strings get a fixed word, numbers 1, booleans true.
 */
export function toolArguments(schema: unknown, text: string): Record<string, unknown> {
  const properties = isRecord(schema) && isRecord(schema.properties) ? schema.properties : {};
  const required = isRecord(schema) && Array.isArray(schema.required) ? schema.required : null;
  const place = /\bin ([A-Z][\p{L}-]*(?: [A-Z][\p{L}-]*)*)/u.exec(text)?.[1] ?? "Paris";
  const args: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    if (required && !required.includes(name)) continue;
    const type =
      isRecord(property) && typeof property.type === "string" ? property.type.toLowerCase() : "string";
    if (type === "number" || type === "integer") args[name] = 1;
    else if (type === "boolean") args[name] = true;
    else if (type === "string") args[name] = /city|location|place|town|where/i.test(name) ? place : "example";
    else args[name] = null;
  }
  return args;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
