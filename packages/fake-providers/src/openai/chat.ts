import { splitEvenly, streamPieces } from "../core/content.js";
import { randomId } from "../core/ids.js";
import { respondJson, respondStream } from "../core/respond.js";
import type { ExchangeContext } from "../core/server.js";
import { estimateTokens } from "../core/tokens.js";
import { type ChatPlan, planChat } from "./chat-plan.js";
import { type ChatRequest, parseChatRequest } from "./chat-request.js";
import { modelNotFound, sendOpenAiError } from "./errors.js";

export interface OpenAiFlavour {
  readonly demo: boolean;
  /**
   * OpenAI's completion and every chunk carry `system_fingerprint`, "the backend configuration that the
   * model runs with" (platform.openai.com/docs/api-reference/chat/object and /chat/streaming); Anthropic's
   * and Gemini's formats have no such member, and their fakes send none.
   */
  readonly systemFingerprint: string;
  /** The top-level fields this host accepts. */
  readonly chatFields: ReadonlySet<string>;
}

export async function handleChatCompletion(ctx: ExchangeContext, flavour: OpenAiFlavour): Promise<void> {
  const request = parseChatRequest(ctx.body, flavour.chatFields);
  if ("status" in request) return sendOpenAiError(ctx, request);
  if (ctx.options.knownModels && !ctx.options.knownModels.includes(request.model)) {
    return sendOpenAiError(ctx, modelNotFound(request.model));
  }
  const plan = planChat(request, flavour.demo);
  const cached = ctx.steering.cache ? cachedPrefixTokens(ctx, request) : 0;
  const id = randomId("chatcmpl-", 29);
  const created = Math.floor(Date.now() / 1000);
  if (request.stream) {
    await respondStream(
      ctx,
      streamFrames(request, plan, { id, created, flavour, noUsage: ctx.steering.noUsage, cached }),
      {
        contentType: "text/event-stream; charset=utf-8",
      },
    );
    return;
  }
  await respondJson(ctx, 200, {
    id,
    object: "chat.completion",
    created,
    model: request.model,
    choices: Array.from({ length: request.n }, (_, index) => ({
      index,
      message: {
        role: "assistant",
        content: plan.content,
        refusal: null,
        annotations: plan.annotations,
        ...(request.speaks ? spokenMessage(plan.content) : {}),
        ...(plan.toolCall
          ? {
              tool_calls: [
                {
                  id: plan.toolCall.id,
                  type: "function",
                  function: { name: plan.toolCall.name, arguments: plan.toolCall.arguments },
                },
              ],
            }
          : {}),
      },
      logprobs: null,
      finish_reason: plan.finishReason,
    })),
    ...(ctx.steering.noUsage ? {} : { usage: usage(plan, request.n, cached, request.speaks) }),
    service_tier: "default",
    system_fingerprint: flavour.systemFingerprint,
  });
}

/**
 * Under the `cache` scenario: OpenAI caches prompt prefixes on its own and reports the part read from the
 * cache as `usage.prompt_tokens_details.cached_tokens` (https://platform.openai.com/docs/guides/prompt-caching).
 * The fake's prefix is every message but the last, with the tools; its first use writes it.
 */
function cachedPrefixTokens(ctx: ExchangeContext, request: ChatRequest): number {
  const prefix = request.messages.slice(0, -1);
  if (prefix.length === 0) return 0;
  if (!ctx.promptCache.hit({ model: request.model, prefix, tools: request.tools })) return 0;
  return prefix.reduce((sum, m) => sum + estimateTokens(m.text) + 3, 0);
}

/**
 * Audio output (platform.openai.com/docs/guides/audio, "Generate audio"): with `modalities: ["text",
 * "audio"]` the message's `content` is null and `audio` holds the speech (`id`, base64 `data`,
 * `expires_at`) and its `transcript`; `completion_tokens_details.audio_tokens` counts the speech inside
 * `completion_tokens`, beside the transcript's text tokens. OpenAI publishes no tokens-per-second for
 * output audio; the fake counts one audio token per transcript token.
 */
function spokenMessage(transcript: string | null) {
  return {
    content: null,
    audio: {
      id: randomId("audio_", 24),
      data: Buffer.from(`RIFF fake speech: ${transcript ?? ""}`).toString("base64"),
      expires_at: Math.floor(Date.now() / 1000) + 3600,
      transcript: transcript ?? "",
    },
  };
}

function usage(plan: ChatPlan, n: number, cached: number, speaks = false) {
  // Spoken, the reply is its transcript's text tokens plus as many audio tokens (spokenMessage).
  const spoken = speaks ? plan.completionTokens * n : 0;
  const completion = plan.completionTokens * n + spoken;
  return {
    prompt_tokens: plan.promptTokens,
    completion_tokens: completion,
    total_tokens: plan.promptTokens + completion,
    prompt_tokens_details: { cached_tokens: cached, audio_tokens: plan.audioTokens },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: spoken,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

interface StreamMeta {
  readonly id: string;
  readonly created: number;
  readonly flavour: OpenAiFlavour;
  readonly noUsage: boolean;
  readonly cached: number;
}

/**
 * The chunk sequence the API sends: a role chunk, content (or tool-call) deltas, a finish chunk per choice,
 * then (with `stream_options.include_usage`) a usage chunk with `choices: []` before `data: [DONE]`.
 * With include_usage every other chunk carries `usage: null`; without it there is no usage key at all.
 */
function streamFrames(request: ChatRequest, plan: ChatPlan, meta: StreamMeta): string[] {
  const withUsage = request.includeUsage && !meta.noUsage;
  const chunk = (choices: unknown[], usageValue?: unknown) =>
    `data: ${JSON.stringify({
      id: meta.id,
      object: "chat.completion.chunk",
      created: meta.created,
      model: request.model,
      service_tier: "default",
      system_fingerprint: meta.flavour.systemFingerprint,
      choices,
      ...(request.includeUsage ? { usage: usageValue ?? null } : {}),
    })}\n\n`;
  const delta = (index: number, value: unknown, finish: string | null = null) => ({
    index,
    delta: value,
    logprobs: null,
    finish_reason: finish,
  });

  const frames: string[] = [];
  for (let index = 0; index < request.n; index++) {
    frames.push(
      chunk([delta(index, { role: "assistant", content: plan.content === null ? null : "", refusal: null })]),
    );
    if (plan.toolCall) {
      const call = plan.toolCall;
      frames.push(
        chunk([
          delta(index, {
            tool_calls: [
              { index: 0, id: call.id, type: "function", function: { name: call.name, arguments: "" } },
            ],
          }),
        ]),
      );
      for (const piece of splitEvenly(call.arguments, 3)) {
        frames.push(chunk([delta(index, { tool_calls: [{ index: 0, function: { arguments: piece } }] })]));
      }
    } else {
      for (const piece of streamPieces(plan.content ?? ""))
        frames.push(chunk([delta(index, { content: piece })]));
      // A search model's citations come in a delta of their own once the text is out.
      if (plan.annotations.length > 0) frames.push(chunk([delta(index, { annotations: plan.annotations })]));
    }
    frames.push(chunk([delta(index, {}, plan.finishReason)]));
  }
  if (withUsage) frames.push(chunk([], usage(plan, request.n, meta.cached)));
  frames.push("data: [DONE]\n\n");
  return frames;
}
