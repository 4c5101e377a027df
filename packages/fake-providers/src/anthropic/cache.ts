import { isRecord } from "../core/content.js";
import type { PromptCache } from "../core/prompt-cache.js";
import type { ProviderError } from "../core/server.js";
import { estimateTokens } from "../core/tokens.js";
import { blocksText } from "./request.js";

/** How the input of one request splits between the prompt cache and fresh tokens. */
export interface CacheUsage {
  readonly creation: number;
  readonly read: number;
}

export const NO_CACHE: CacheUsage = { creation: 0, read: 0 };

interface Breakpoint {
  /** Everything the API hashes for this breakpoint: tools, system and messages up to the marked block. */
  readonly prefix: unknown;
  readonly tokens: number;
}

// Prompt caching's rules (https://docs.claude.com/en/docs/build-with-claude/prompt-caching), enforced on
// every request as the API does, whatever the scenario:
// - "You can define up to 4 cache breakpoints": a fifth block with `cache_control` is a 400 whose message
//   is the API's own, "A maximum of 4 blocks with cache_control may be provided. Found 5." (as quoted
//   from the API in envoyproxy/ai-gateway#1712);
// - mixing TTLs, "cache entries with longer TTL must appear before shorter TTLs" in the order tools →
//   system → messages, and a marker without `ttl` is a 5-minute one: a 1-hour marker after a 5-minute
//   one is a 400 named at the later marker, "messages.15.content.1.cache_control.ttl: a ttl='1h'
//   cache_control block must not come after a ttl='5m' cache_control block. Note that blocks are
//   processed in the following order: tools, system, messages." (the API's text, quoted in
//   headroomlabs-ai/headroom#2941);
// - "Minimum cacheable prompt length": a shorter prefix "will not be cached" and the request still
//   succeeds (no error, `cache_creation_input_tokens` 0): 4,096 tokens for Claude Opus 4.5/4.6 and
//   Haiku 4.5, 2,048 for Haiku 3 and 3.5, 1,024 for the others (Sonnet 4.x, Opus 4/4.1, and the fakes'
//   test models).
export const MAX_CACHE_BREAKPOINTS = 4;

/** The smallest prefix, in tokens, that `model` caches. */
export function minimumCacheableTokens(model: unknown): number {
  const id = typeof model === "string" ? model : "";
  if (/opus-4-[56]|haiku-4-5/.test(id)) return 4096;
  if (/3-5-haiku|3-haiku|haiku-3/.test(id)) return 2048;
  return 1024;
}

interface Marker {
  readonly path: string;
  readonly ttl: string;
}

/** The `cache_control` markers of a body in the API's order (tools, system, messages), with their paths. */
function markers(body: Record<string, unknown>): Marker[] {
  const found: Marker[] = [];
  const visit = (block: unknown, path: string) => {
    if (!isRecord(block)) return;
    if (isRecord(block.cache_control))
      found.push({ path, ttl: block.cache_control.ttl === "1h" ? "1h" : "5m" });
    // A tool result's own blocks can carry markers too.
    if (block.type === "tool_result" && Array.isArray(block.content))
      for (const [index, inner] of block.content.entries()) visit(inner, `${path}.content.${index}`);
  };
  const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
  for (const [index, tool] of list(body.tools).entries()) visit(tool, `tools.${index}`);
  for (const [index, block] of list(body.system).entries()) visit(block, `system.${index}`);
  for (const [k, message] of list(body.messages).entries())
    if (isRecord(message))
      for (const [m, block] of list(message.content).entries()) visit(block, `messages.${k}.content.${m}`);
  return found;
}

/** The API's 400 for too many breakpoints or a 1-hour one after a 5-minute one; undefined when fine. */
export function checkCacheBreakpoints(body: Record<string, unknown>): ProviderError | undefined {
  const found = markers(body);
  if (found.length > MAX_CACHE_BREAKPOINTS)
    return {
      status: 400,
      message: `A maximum of ${MAX_CACHE_BREAKPOINTS} blocks with cache_control may be provided. Found ${found.length}.`,
    };
  let short = false;
  for (const marker of found) {
    if (marker.ttl === "5m") short = true;
    else if (short)
      return {
        status: 400,
        message: `${marker.path}.cache_control.ttl: a ttl='1h' cache_control block must not come after a ttl='5m' cache_control block. Note that blocks are processed in the following order: tools, system, messages.`,
      };
  }
  return undefined;
}

/**
 * Prompt caching as the docs describe it (https://docs.claude.com/en/docs/build-with-claude/prompt-caching):
 * a `cache_control` block marks the end of a cacheable prefix, in the order tools → system → messages.
 * A prefix cached before is read (`cache_read_input_tokens`); the rest up to the last breakpoint is
 * written (`cache_creation_input_tokens`); `input_tokens` counts only what follows the last breakpoint.
 * A prefix below the model's minimum cacheable length is neither written nor read.
 */
export function cacheUsage(
  body: Record<string, unknown>,
  totalInput: number,
  cache: PromptCache,
): CacheUsage {
  const minimum = minimumCacheableTokens(body.model);
  const points = breakpoints(body)
    .map((p) => ({ ...p, tokens: Math.min(p.tokens, totalInput) }))
    .filter((p) => p.tokens >= minimum);
  const last = points.at(-1);
  if (!last) return NO_CACHE;
  let read = 0;
  for (const point of points) if (cache.hit(point.prefix)) read = Math.max(read, point.tokens);
  return { read, creation: Math.max(0, last.tokens - read) };
}

function breakpoints(body: Record<string, unknown>): Breakpoint[] {
  const tools = Array.isArray(body.tools) ? body.tools : [];
  const system = typeof body.system === "string" ? [{ type: "text", text: body.system }] : body.system;
  const systemBlocks = Array.isArray(system) ? system : [];
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const base = { model: body.model };
  const points: Breakpoint[] = [];
  const toolTokens = tools.length > 0 ? estimateTokens(JSON.stringify(tools)) : 0;
  tools.forEach((tool, i) => {
    if (isRecord(tool) && tool.cache_control)
      points.push({
        prefix: { ...base, tools: tools.slice(0, i + 1) },
        tokens: estimateTokens(JSON.stringify(tools.slice(0, i + 1))),
      });
  });
  systemBlocks.forEach((block, i) => {
    if (isRecord(block) && block.cache_control)
      points.push({
        prefix: { ...base, tools, system: systemBlocks.slice(0, i + 1) },
        tokens: toolTokens + estimateTokens(blocksText(systemBlocks.slice(0, i + 1))),
      });
  });
  let before = toolTokens + estimateTokens(blocksText(systemBlocks));
  messages.forEach((message, k) => {
    const content = isRecord(message) && Array.isArray(message.content) ? message.content : [];
    content.forEach((block, m) => {
      if (!isRecord(block) || !block.cache_control) return;
      const upTo = [...messages.slice(0, k), { ...(message as object), content: content.slice(0, m + 1) }];
      points.push({
        prefix: { ...base, tools, system: systemBlocks, messages: upTo },
        tokens: before + estimateTokens(blocksText(content.slice(0, m + 1))) + 3,
      });
    });
    before += estimateTokens(blocksText(isRecord(message) ? message.content : "")) + 3;
  });
  return points;
}
