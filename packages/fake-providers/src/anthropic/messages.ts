import { isRecord, splitEvenly, streamPieces } from "../core/content.js";
import { randomId } from "../core/ids.js";
import { respondJson, respondStream } from "../core/respond.js";
import type { ExchangeContext } from "../core/server.js";
import { type CacheUsage, cacheUsage, checkCacheBreakpoints, NO_CACHE } from "./cache.js";
import { sendAnthropicError } from "./errors.js";
import { betasOf } from "./fields.js";
import { countInputTokens, type MessagePlan, planMessage } from "./plan.js";
import { parseMessagesRequest } from "./request.js";

export async function handleMessages(ctx: ExchangeContext, demo: boolean): Promise<void> {
  const request = parseMessagesRequest(ctx.body, true, betasOf(ctx.req.headers["anthropic-beta"]));
  if ("status" in request) return sendAnthropicError(ctx, request);
  const breakpoints = isRecord(ctx.body) ? checkCacheBreakpoints(ctx.body) : undefined;
  if (breakpoints) return sendAnthropicError(ctx, breakpoints);
  if (ctx.options.knownModels && !ctx.options.knownModels.includes(request.model)) {
    return sendAnthropicError(ctx, { status: 404, message: `model: ${request.model}` });
  }
  const plan = planMessage(request, demo);
  const cache =
    ctx.steering.cache && isRecord(ctx.body)
      ? cacheUsage(ctx.body, plan.inputTokens, ctx.promptCache)
      : NO_CACHE;
  const id = randomId("msg_01", 22);
  const noUsage = ctx.steering.noUsage;
  if (request.stream) {
    await respondStream(ctx, streamEvents(id, request.model, plan, noUsage, cache), {
      contentType: "text/event-stream; charset=utf-8",
    });
    return;
  }
  await respondJson(ctx, 200, {
    id,
    type: "message",
    role: "assistant",
    model: request.model,
    content: plan.content,
    stop_reason: plan.stopReason,
    stop_sequence: null,
    ...(noUsage ? {} : { usage: fullUsage(plan.inputTokens, plan.outputTokens, cache, plan) }),
  });
}

export async function handleCountTokens(ctx: ExchangeContext): Promise<void> {
  const request = parseMessagesRequest(ctx.body, false, betasOf(ctx.req.headers["anthropic-beta"]));
  if ("status" in request) return sendAnthropicError(ctx, request);
  const breakpoints = isRecord(ctx.body) ? checkCacheBreakpoints(ctx.body) : undefined;
  if (breakpoints) return sendAnthropicError(ctx, breakpoints);
  await respondJson(ctx, 200, { input_tokens: countInputTokens(request) });
}

/** `input_tokens` counts only the input after the last cache breakpoint, as the API reports it. */
function fullUsage(input: number, output: number, cache: CacheUsage, plan?: MessagePlan) {
  return {
    input_tokens: input - cache.creation - cache.read,
    cache_creation_input_tokens: cache.creation,
    cache_read_input_tokens: cache.read,
    output_tokens: output,
    // Present once the request offered a server tool (docs.claude.com "Web search tool", "Usage").
    ...(plan && plan.webSearchRequests > 0
      ? { server_tool_use: { web_search_requests: plan.webSearchRequests } }
      : {}),
    service_tier: "standard",
  };
}

/**
 * The event sequence of the streaming API, each as an `event:` line plus a `data:` line: message_start, then
 * per block content_block_start / deltas / content_block_stop (a ping after the first start, as the API
 * sends one), then message_delta with the stop reason and cumulative output usage, then message_stop.
 */
function streamEvents(
  id: string,
  model: string,
  plan: MessagePlan,
  noUsage: boolean,
  cache: CacheUsage,
): string[] {
  return streamEventData(id, model, plan, noUsage, cache).map(
    (data) => `event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`,
  );
}

/** The stream's events as JSON objects (`type` first): the fake Bedrock wraps the same events in its frames. */
export function streamEventData(
  id: string,
  model: string,
  plan: MessagePlan,
  noUsage: boolean,
  cache: CacheUsage,
): Record<string, unknown>[] {
  const event = (type: string, data: Record<string, unknown>) => ({ type, ...data });
  const frames = [
    event("message_start", {
      message: {
        id,
        type: "message",
        role: "assistant",
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        ...(noUsage ? {} : { usage: fullUsage(plan.inputTokens, 1, cache) }),
      },
    }),
  ];
  plan.content.forEach((block, index) => {
    if (block.type === "server_tool_use") {
      frames.push(
        event("content_block_start", { index, content_block: { ...block, input: {} } }),
        event("content_block_delta", {
          index,
          delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) },
        }),
      );
    } else if (block.type === "web_search_tool_result") {
      // The results arrive whole in the block's start event.
      frames.push(event("content_block_start", { index, content_block: block }));
    } else if (block.type === "text") {
      const cited = block.citations !== undefined;
      frames.push(
        event("content_block_start", {
          index,
          content_block: { type: "text", text: "", ...(cited ? { citations: [] } : {}) },
        }),
      );
      if (index === 0) frames.push(event("ping", {}));
      // A cited block's citations stream before its text.
      for (const citation of block.citations ?? [])
        frames.push(event("content_block_delta", { index, delta: { type: "citations_delta", citation } }));
      for (const text of streamPieces(block.text)) {
        frames.push(event("content_block_delta", { index, delta: { type: "text_delta", text } }));
      }
    } else if (block.type === "thinking") {
      frames.push(
        event("content_block_start", {
          index,
          content_block: { type: "thinking", thinking: "", signature: "" },
        }),
      );
      if (index === 0) frames.push(event("ping", {}));
      for (const thinking of streamPieces(block.thinking)) {
        frames.push(event("content_block_delta", { index, delta: { type: "thinking_delta", thinking } }));
      }
      frames.push(
        event("content_block_delta", {
          index,
          delta: { type: "signature_delta", signature: block.signature },
        }),
      );
    } else {
      frames.push(
        event("content_block_start", {
          index,
          content_block: { type: "tool_use", id: block.id, name: block.name, input: {} },
        }),
      );
      if (index === 0) frames.push(event("ping", {}));
      // The API opens tool input with an empty partial_json before the pieces.
      for (const partial_json of ["", ...splitEvenly(JSON.stringify(block.input), 3)]) {
        frames.push(
          event("content_block_delta", { index, delta: { type: "input_json_delta", partial_json } }),
        );
      }
    }
    frames.push(event("content_block_stop", { index }));
  });
  frames.push(
    event("message_delta", {
      delta: { stop_reason: plan.stopReason, stop_sequence: null },
      ...(noUsage
        ? {}
        : {
            usage: {
              output_tokens: plan.outputTokens,
              ...(plan.webSearchRequests > 0
                ? { server_tool_use: { web_search_requests: plan.webSearchRequests } }
                : {}),
            },
          }),
    }),
  );
  frames.push(event("message_stop", {}));
  return frames;
}
