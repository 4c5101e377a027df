import { DEFAULT_MAX_JSON_DEPTH, exceedsDepth } from "@gw/http";
import type { ChatMessage } from "../../canonical/chat-request.js";
import { untranslatable } from "../untranslatable.js";
import { type MediaPiece, mediaPiece } from "./media-parts.js";

/**
 * A prompt-caching breakpoint as Anthropic defines it (`{type: "ephemeral", ttl?: "5m" | "1h"}`), carried on
 * chat content parts the way OpenRouter does; only Anthropic's format has a place for it.
 */
export type CacheControl = Record<string, unknown>;

/** One piece of OpenAI message content in a provider-neutral form, with its path for refusals. */
export type ContentPiece = ({ kind: "text"; text: string } | MediaPiece) & {
  cacheControl?: CacheControl;
  path: string;
};

/** Message content as pieces; parts no other format can carry are refused with their path. */
export function contentPieces(content: ChatMessage["content"], path: string): ContentPiece[] {
  if (content === undefined || content === null) return [];
  if (typeof content === "string")
    return content.length > 0 ? [{ kind: "text", text: content, path: `${path}[0]` }] : [];
  return content.map((part, index) => piece(part, `${path}[${index}]`));
}

function piece(part: Record<string, unknown> & { type: string }, path: string): ContentPiece {
  const marker = cacheControlOf(part);
  const found = { ...plainPiece(part, path), path };
  return marker ? { ...found, cacheControl: marker } : found;
}

/** The `cache_control` object of a part, a tool or a block, if it has one. */
export function cacheControlOf(holder: Record<string, unknown>): CacheControl | undefined {
  const marker = holder.cache_control;
  return typeof marker === "object" && marker !== null && !Array.isArray(marker)
    ? (marker as CacheControl)
    : undefined;
}

function plainPiece(
  part: Record<string, unknown> & { type: string },
  path: string,
): { kind: "text"; text: string } | MediaPiece {
  if (part.type === "text" && typeof part.text === "string") return { kind: "text", text: part.text };
  if (part.type === "refusal" && typeof part.refusal === "string")
    return { kind: "text", text: part.refusal };
  const media = mediaPiece(part, path);
  if (media) return media;
  return untranslatable(`${path} (type ${part.type})`, "the provider has no equivalent content type");
}

/** Text-only content (system prompts, tool results): anything else is refused. */
export function contentText(content: ChatMessage["content"], path: string): string {
  return contentPieces(content, path)
    .map((entry, index) =>
      entry.kind === "text" ? entry.text : untranslatable(`${path}[${index}]`, "only text is allowed here"),
    )
    .join("");
}

/** The last caching breakpoint of a message's content (a tool result carries one for the whole block). */
export function lastCacheControl(content: ChatMessage["content"], path: string): CacheControl | undefined {
  return contentPieces(content, path).findLast((entry) => entry.cacheControl)?.cacheControl;
}

export interface SystemBlock {
  text: string;
  cacheControl: CacheControl | undefined;
}

/**
 * System and developer messages as text blocks, each content part its own block with its caching
 * breakpoint, for a target that takes system blocks (Anthropic): undefined when there are none.
 */
export function systemBlocks(messages: readonly ChatMessage[]): SystemBlock[] | undefined {
  const blocks = messages.flatMap((message, index) => {
    if (message.role !== "system" && message.role !== "developer") return [];
    const path = `messages[${index}].content`;
    return contentPieces(message.content, path).map((entry, part) =>
      entry.kind === "text"
        ? { text: entry.text, cacheControl: entry.cacheControl }
        : untranslatable(`${path}[${part}]`, "only text is allowed here"),
    );
  });
  return blocks.length > 0 ? blocks : undefined;
}

/** System and developer messages, joined in order (a mid-conversation one loses its position). */
export function systemPrompt(messages: readonly ChatMessage[]): string | undefined {
  const parts = messages.flatMap((message, index) =>
    message.role === "system" || message.role === "developer"
      ? [contentText(message.content, `messages[${index}].content`)]
      : [],
  );
  return parts.length > 0 ? parts.join("\n\n") : undefined;
}

export interface ToolCallWire {
  id: string;
  name: string;
  arguments: string;
}

/** An assistant turn's tool calls; only function calls translate. */
export function toolCalls(message: ChatMessage, path: string): ToolCallWire[] {
  return (message.tool_calls ?? []).map((call, index) => {
    const fn = call.function;
    if (call.type !== undefined && call.type !== "function")
      return untranslatable(`${path}.tool_calls[${index}]`, `tool call type ${String(call.type)}`);
    if (typeof fn !== "object" || fn === null || !("name" in fn) || typeof fn.name !== "string")
      return untranslatable(`${path}.tool_calls[${index}]`, "function.name is missing");
    const args = "arguments" in fn && typeof fn.arguments === "string" ? fn.arguments : "{}";
    const id = typeof call.id === "string" ? call.id : `call_${index}`;
    return { id, name: fn.name, arguments: args };
  });
}

/** Tool-call arguments as an object: the other formats carry objects, not JSON strings. */
export function parseArguments(text: string, path: string): Record<string, unknown> {
  if (text.trim() === "") return {};
  // A JSON string inside the body escapes the body's depth limit; the parsed object is later written
  // out by recursive code (JSON.stringify overflows the stack near 5,000 levels: a 500, issue 33).
  if (exceedsDepth(text, DEFAULT_MAX_JSON_DEPTH))
    return untranslatable(path, `function.arguments nests deeper than ${DEFAULT_MAX_JSON_DEPTH} levels`);
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === "object" && value !== null && !Array.isArray(value))
      return value as Record<string, unknown>;
  } catch {
    // fall through to the refusal
  }
  return untranslatable(path, "function.arguments is not a JSON object");
}

export interface FunctionTool {
  name: string;
  description: string | undefined;
  parameters: Record<string, unknown> | undefined;
  /** A caching breakpoint on the tool (OpenRouter style, beside `type` and `function`). */
  cacheControl: CacheControl | undefined;
}

/** Function tools of a request; other tool types (custom, server tools) are refused. */
export function functionTools(tools: readonly Record<string, unknown>[] | undefined): FunctionTool[] {
  return (tools ?? []).map((tool, index) => {
    const fn = tool.function;
    if (tool.type !== "function" || typeof fn !== "object" || fn === null)
      return untranslatable(`tools[${index}] (type ${String(tool.type)})`, "only function tools translate");
    const record = fn as Record<string, unknown>;
    if (typeof record.name !== "string") return untranslatable(`tools[${index}]`, "function.name is missing");
    return {
      name: record.name,
      description: typeof record.description === "string" ? record.description : undefined,
      parameters:
        typeof record.parameters === "object" && record.parameters !== null
          ? (record.parameters as Record<string, unknown>)
          : undefined,
      cacheControl: cacheControlOf(tool),
    };
  });
}

export type ToolChoice = { mode: "auto" | "required" | "none" } | { mode: "function"; name: string };

export function toolChoice(value: unknown): ToolChoice | undefined {
  if (value === undefined || value === null) return undefined;
  if (value === "auto" || value === "required" || value === "none") return { mode: value };
  if (typeof value === "object" && "function" in value) {
    const fn = value.function;
    if (typeof fn === "object" && fn !== null && "name" in fn && typeof fn.name === "string")
      return { mode: "function", name: fn.name };
  }
  return untranslatable("tool_choice", "only auto, required, none or one named function translate");
}

/** `stop` as a list. */
export function stopSequences(stop: string | string[] | null | undefined): string[] | undefined {
  if (stop === undefined || stop === null) return undefined;
  return typeof stop === "string" ? [stop] : stop;
}
