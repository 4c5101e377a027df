import type { ChatRequest } from "../../canonical/chat-request.js";
import { cacheControlOf } from "../openai/content.js";
import { untranslatable } from "../untranslatable.js";

type Block = Record<string, unknown>;

/** Anthropic allows at most four cache breakpoints per request (docs.claude.com, "Prompt caching"). */
const MAX_BREAKPOINTS = 4;
/** Blocks `cache_control` cannot mark: thinking is cached only as part of the turn around it. */
const NOT_CACHEABLE = new Set(["thinking", "redacted_thinking"]);

/**
 * OpenRouter's top-level `cache_control` (automatic caching, @openrouter/sdk's `cacheControl`): "the
 * system automatically applies cache breakpoints to the last cacheable block in the request". On an
 * Anthropic body that is the last block of the last message that can carry one (tools and system come
 * before the messages in Anthropic's caching order); a block already marked keeps its own marker, and no
 * fifth breakpoint is added past Anthropic's four. Written on the block rather than sent top-level, so
 * Bedrock's and Vertex's Claude, which take the same body, cache the same prefix.
 */
export function applyAutomaticCaching(request: ChatRequest, body: Record<string, unknown>): void {
  const requested = request.cache_control;
  if (requested === undefined || requested === null) return;
  const marker = cacheControlOf({ cache_control: requested });
  if (marker?.type !== "ephemeral")
    untranslatable("cache_control", 'expected {"type": "ephemeral"} with an optional ttl');
  markLastCacheable(body, marker);
}

/**
 * The breakpoint of automatic caching on an Anthropic Messages body: on the last block that can carry
 * one, unless it has its own or the body already has Anthropic's four. A message whose content is a
 * string becomes one text block to carry it. The `/v1/messages` pass-through writes a caller's
 * top-level `cache_control` this way too (anthropic/native-rules.ts).
 */
export function markLastCacheable(body: Record<string, unknown>, marker: Record<string, unknown>): void {
  const messages = Array.isArray(body.messages) ? (body.messages as Block[]) : [];
  const holder = messages.findLast((message) => hasCacheable(message.content));
  if (!holder) return;
  if (typeof holder.content === "string") holder.content = [{ type: "text", text: holder.content }];
  const last = (holder.content as Block[]).findLast(cacheable);
  if (!last || last.cache_control !== undefined) return;
  if (breakpoints(body) >= MAX_BREAKPOINTS) return;
  last.cache_control = marker;
}

const cacheable = (block: Block | undefined): block is Block =>
  typeof block === "object" && block !== null && !NOT_CACHEABLE.has(String(block.type));

function hasCacheable(content: unknown): boolean {
  if (typeof content === "string") return content.length > 0;
  return Array.isArray(content) && content.some(cacheable);
}

function breakpoints(body: Record<string, unknown>): number {
  const marked = (list: unknown) =>
    Array.isArray(list) ? list.filter((block: Block) => block?.cache_control !== undefined).length : 0;
  const messages = Array.isArray(body.messages) ? (body.messages as { content: unknown }[]) : [];
  return (
    marked(body.tools) +
    marked(body.system) +
    messages.reduce((sum, message) => sum + marked(message.content), 0)
  );
}
