import { isRecord } from "../core/content.js";
import type { PromptCache } from "../core/prompt-cache.js";
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

/**
 * Prompt caching as the docs describe it (https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching):
 * a `cache_control` block marks the end of a cacheable prefix, in the order tools → system → messages.
 * A prefix cached before is read (`cache_read_input_tokens`); the rest up to the last breakpoint is
 * written (`cache_creation_input_tokens`); `input_tokens` counts only what follows the last breakpoint.
 */
export function cacheUsage(
  body: Record<string, unknown>,
  totalInput: number,
  cache: PromptCache,
): CacheUsage {
  const points = breakpoints(body).map((p) => ({ ...p, tokens: Math.min(p.tokens, totalInput) }));
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
