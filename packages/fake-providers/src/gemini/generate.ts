import {
  asksForTool,
  limitReply,
  replyText,
  streamPieces,
  toolArguments,
  toolResultReply,
} from "../core/content.js";
import { randomId } from "../core/ids.js";
import { respondJson, respondStream } from "../core/respond.js";
import type { ExchangeContext } from "../core/server.js";
import { estimateTokens } from "../core/tokens.js";
import { GEMINI_JSON, sendGeminiError } from "./errors.js";
import { COUNT_TOKENS_REQUEST, GENERATE_REQUEST, normalizeFields } from "./fields.js";
import { type Grounding, groundingFor } from "./grounding.js";
import type { ModalityTokens } from "./media.js";
import { type GenerateRequest, parseCountRequest, parseGenerateRequest } from "./request.js";

type Part =
  | { readonly text: string }
  | { readonly functionCall: { name: string; args: Record<string, unknown> } };

interface GeneratePlan {
  readonly parts: readonly Part[];
  readonly finishReason: "STOP" | "MAX_TOKENS";
  readonly promptTokens: number;
  readonly candidatesTokens: number;
  /** Google Search grounding of a text answer, on the last candidate (chunk) only. */
  readonly grounding?: Grounding | undefined;
}

// Prompt count: the text estimate of the system instruction, every content and the tool declarations.
export function countPromptTokens(request: GenerateRequest): number {
  return (
    estimateTokens(request.system) +
    request.contents.reduce((sum, c) => sum + estimateTokens(c.text), 0) +
    (request.tools.length > 0 ? estimateTokens(JSON.stringify(request.tools)) : 0)
  );
}

function plan(request: GenerateRequest, demo: boolean): GeneratePlan {
  const promptTokens =
    countPromptTokens(request) + request.media.IMAGE + request.media.AUDIO + request.media.DOCUMENT;
  const last = request.contents.at(-1);
  const lastText = last?.functionResponse ? "" : (last?.text ?? "");
  const tool = chooseTool(
    request,
    last?.functionResponse !== null && last?.functionResponse !== undefined,
    lastText,
  );
  if (tool) {
    const args = toolArguments(tool.parameters, lastText);
    return {
      // Gemini has no "tool calls" finish reason: a call still finishes with STOP.
      parts: [{ functionCall: { name: tool.name, args } }],
      finishReason: "STOP",
      promptTokens,
      candidatesTokens: estimateTokens(tool.name) + estimateTokens(JSON.stringify(args)),
    };
  }
  const full = last?.functionResponse
    ? toolResultReply(last.functionResponse, { demo })
    : replyText(lastText, { demo });
  const { text, truncated } = limitReply(full, request.maxOutputTokens);
  return {
    parts: [{ text }],
    finishReason: truncated ? "MAX_TOKENS" : "STOP",
    promptTokens,
    candidatesTokens: estimateTokens(text),
    ...(request.googleSearch && !last?.functionResponse ? { grounding: groundingFor(lastText, text) } : {}),
  };
}

function chooseTool(request: GenerateRequest, afterResponse: boolean, text: string) {
  if (request.tools.length === 0 || request.mode === "NONE") return undefined;
  const allowed =
    request.allowed.length > 0
      ? request.tools.filter((t) => request.allowed.includes(t.name))
      : request.tools;
  const wanted = request.mode === "ANY" || (!afterResponse && asksForTool(text));
  if (!wanted) return undefined;
  return allowed.find((t) => /weather/i.test(t.name)) ?? allowed[0];
}

/**
 * Under the `cache` scenario: Gemini 2.5 models cache implicitly and report the part of the prompt read
 * from the cache as `usageMetadata.cachedContentTokenCount`, included in `promptTokenCount`
 * (https://ai.google.dev/gemini-api/docs/caching). The fake's prefix: system instruction, tools and every
 * content but the last.
 */
function cachedPrefixTokens(ctx: ExchangeContext, model: string, request: GenerateRequest): number {
  const prefix = request.contents.slice(0, -1);
  if (prefix.length === 0) return 0;
  if (!ctx.promptCache.hit({ model, system: request.system, tools: request.tools, prefix })) return 0;
  return countPromptTokens({ ...request, contents: prefix });
}

/** The prompt's count by modality, as Gemini reports it: the text and each modality sent. */
function promptDetails(promptTokens: number, media: ModalityTokens) {
  const sent = (["IMAGE", "AUDIO", "DOCUMENT"] as const).filter((modality) => media[modality] > 0);
  const text = promptTokens - sent.reduce((sum, modality) => sum + media[modality], 0);
  return [
    { modality: "TEXT", tokenCount: text },
    ...sent.map((modality) => ({ modality, tokenCount: media[modality] })),
  ];
}

function usageMetadata(
  promptTokens: number,
  candidatesTokens: number | null,
  cached: number,
  media: ModalityTokens,
  toolUse = 0,
) {
  return {
    promptTokenCount: promptTokens,
    ...(toolUse > 0 ? { toolUsePromptTokenCount: toolUse } : {}),
    ...(cached > 0 ? { cachedContentTokenCount: cached } : {}),
    ...(candidatesTokens === null ? {} : { candidatesTokenCount: candidatesTokens }),
    totalTokenCount: promptTokens + toolUse + (candidatesTokens ?? 0),
    promptTokensDetails: promptDetails(promptTokens, media),
  };
}

export async function handleGenerate(
  ctx: ExchangeContext,
  model: string,
  demo: boolean,
  stream: boolean,
): Promise<void> {
  const normalized = normalizeFields(ctx.body, GENERATE_REQUEST);
  if ("status" in normalized) return sendGeminiError(ctx, normalized);
  const request = parseGenerateRequest(normalized.value);
  if ("status" in request) return sendGeminiError(ctx, request);
  const planned = plan(request, demo);
  const cached = ctx.steering.cache ? cachedPrefixTokens(ctx, model, request) : 0;
  const responseId = randomId("", 22);
  const noUsage = ctx.steering.noUsage;
  const response = (parts: readonly Part[], final: boolean) => ({
    candidates: [
      {
        content: { parts, role: "model" },
        ...(final ? { finishReason: planned.finishReason } : {}),
        ...(final && planned.grounding ? { groundingMetadata: planned.grounding.metadata } : {}),
        index: 0,
      },
    ],
    // Intermediate stream chunks carry the prompt count only; the last one has the full counts.
    ...(noUsage
      ? {}
      : {
          usageMetadata: usageMetadata(
            planned.promptTokens,
            final ? planned.candidatesTokens : null,
            cached,
            request.media,
            planned.grounding?.toolUsePromptTokens,
          ),
        }),
    modelVersion: model,
    responseId,
  });

  if (!stream) return respondJson(ctx, 200, response(planned.parts, true), GEMINI_JSON);

  const chunks: Part[][] = [];
  for (const part of planned.parts) {
    if ("text" in part) for (const text of streamPieces(part.text)) chunks.push([{ text }]);
    // A function call arrives whole, in one chunk.
    else chunks.push([part]);
  }
  const bodies = chunks.map((parts, i) => JSON.stringify(response(parts, i === chunks.length - 1)));
  if (ctx.url.searchParams.get("alt") === "sse") {
    // `data:` frames only, no event names and no end marker: the stream ends when the connection closes.
    await respondStream(
      ctx,
      bodies.map((b) => `data: ${b}\r\n\r\n`),
      { contentType: "text/event-stream" },
    );
    return;
  }
  // Without alt=sse the API writes one JSON array progressively.
  await respondStream(
    ctx,
    bodies.map((b, i) => (i === 0 ? b : `,\r\n${b}`)),
    { contentType: GEMINI_JSON, prefix: "[", suffix: "]" },
  );
}

export async function handleCountTokens(ctx: ExchangeContext): Promise<void> {
  const normalized = normalizeFields(ctx.body, COUNT_TOKENS_REQUEST);
  if ("status" in normalized) return sendGeminiError(ctx, normalized);
  const request = parseCountRequest(normalized.value);
  if ("status" in request) return sendGeminiError(ctx, request);
  const total = countPromptTokens(request);
  await respondJson(
    ctx,
    200,
    { totalTokens: total, promptTokensDetails: [{ modality: "TEXT", tokenCount: total }] },
    GEMINI_JSON,
  );
}
