import type { TokenUsage } from "../../canonical/tokens.js";
import { type ChunkWire, type CompletionWire, usageToWire } from "../../canonical/wire.js";
import { groundedSearches, groundingCitations } from "./grounding.js";

/** Tags reasoning details holding Gemini thought signatures (keyed by tool-call id). */
export const GEMINI_REASONING_FORMAT = "google-gemini-v1";

type Json = Record<string, unknown>;

const FILTERED = new Set(["SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII"]);

/** Gemini `finishReason` → OpenAI (wire-formats §4.5); STOP with function calls is `tool_calls`. */
export function openAiFinishReason(reason: string | undefined, calledTools: boolean): string | null {
  if (!reason) return null;
  if (reason === "MAX_TOKENS") return "length";
  if (FILTERED.has(reason) || reason.startsWith("IMAGE_")) return "content_filter";
  return calledTools ? "tool_calls" : "stop";
}

export interface GeminiUsageWire {
  promptTokenCount?: number;
  candidatesTokenCount?: number;
  thoughtsTokenCount?: number;
  toolUsePromptTokenCount?: number;
  cachedContentTokenCount?: number;
  /** The prompt's tokens by modality (TEXT, IMAGE, AUDIO, VIDEO, DOCUMENT). */
  promptTokensDetails?: { modality?: string; tokenCount?: number }[];
}

/** Gemini's per-modality prompt counts (ai.google.dev "Understand and count tokens": ModalityTokenCount). */
function geminiMedia(wire: GeminiUsageWire): Partial<TokenUsage> {
  const of = (modality: string) =>
    (wire.promptTokensDetails ?? [])
      .filter((detail) => detail.modality === modality)
      .reduce((sum, detail) => sum + (detail.tokenCount ?? 0), 0);
  const media: Partial<TokenUsage> = {
    audioTokens: of("AUDIO"),
    imageTokens: of("IMAGE"),
    documentTokens: of("DOCUMENT"),
  };
  return Object.fromEntries(Object.entries(media).filter(([, count]) => count > 0));
}

export function usageFromGemini(wire: GeminiUsageWire | undefined): TokenUsage | undefined {
  if (!wire || (wire.promptTokenCount === undefined && wire.candidatesTokenCount === undefined))
    return undefined;
  const reasoningTokens = wire.thoughtsTokenCount ?? 0;
  return {
    promptTokens: (wire.promptTokenCount ?? 0) + (wire.toolUsePromptTokenCount ?? 0),
    completionTokens: (wire.candidatesTokenCount ?? 0) + reasoningTokens,
    cachedTokens: wire.cachedContentTokenCount ?? 0,
    cacheWriteTokens: 0,
    reasoningTokens,
    ...geminiMedia(wire),
  };
}

/** Makes tool-call ids for Gemini calls that carry none; one per translated response or stream. */
export class CallIds {
  private next = 0;
  constructor(private readonly prefix: string) {}
  id(call: Json): string {
    return typeof call.id === "string" && call.id ? call.id : `call_${this.prefix}_${this.next++}`;
  }
}

export interface MappedParts {
  delta: Json;
  calledTools: boolean;
}

/** One candidate's parts as an OpenAI message (or delta): text, reasoning, tool calls, signatures. */
export function mapParts(parts: readonly Json[], ids: CallIds, firstToolIndex = 0): MappedParts {
  const texts: string[] = [];
  const thoughts: string[] = [];
  const calls: Json[] = [];
  const details: Json[] = [];
  for (const part of parts) {
    const call = part.functionCall as Json | undefined;
    if (call) {
      const id = ids.id(call);
      calls.push({
        index: firstToolIndex + calls.length,
        id,
        type: "function",
        function: { name: call.name, arguments: JSON.stringify(call.args ?? {}) },
      });
      if (typeof part.thoughtSignature === "string")
        details.push({
          type: "reasoning.encrypted",
          id,
          data: part.thoughtSignature,
          format: GEMINI_REASONING_FORMAT,
        });
    } else if (typeof part.text === "string") (part.thought === true ? thoughts : texts).push(part.text);
  }
  const delta: Json = {};
  if (texts.length > 0) delta.content = texts.join("");
  if (thoughts.length > 0) delta.reasoning = thoughts.join("");
  if (calls.length > 0) delta.tool_calls = calls;
  if (details.length > 0) delta.reasoning_details = details;
  return { delta, calledTools: calls.length > 0 };
}

function candidatesOf(response: Json): Json[] {
  return Array.isArray(response.candidates) ? (response.candidates as Json[]) : [];
}

function partsOf(candidate: Json): Json[] {
  const content = candidate.content as Json | undefined;
  return Array.isArray(content?.parts) ? (content.parts as Json[]) : [];
}

/** A generateContent response as a canonical completion; a blocked prompt is an empty content_filter. */
export function completionFromGemini(response: Json): CompletionWire {
  const ids = new CallIds(typeof response.responseId === "string" ? response.responseId : "gemini");
  const candidates = candidatesOf(response);
  const choices =
    candidates.length > 0
      ? candidates.map((candidate, position) => {
          const { delta, calledTools } = mapParts(partsOf(candidate), ids);
          withGrounding(delta, typeof delta.content === "string" ? delta.content : "", candidate);
          return {
            index: typeof candidate.index === "number" ? candidate.index : position,
            message: messageOf(delta),
            logprobs: null,
            finish_reason:
              openAiFinishReason(candidate.finishReason as string | undefined, calledTools) ?? "stop",
          };
        })
      : [{ index: 0, message: messageOf({}), logprobs: null, finish_reason: "content_filter" }];
  const usage = responseUsage(response);
  return {
    id: typeof response.responseId === "string" ? response.responseId : undefined,
    object: "chat.completion",
    choices,
    ...(usage ? { usage: usageToWire(usage) } : {}),
  };
}

/** A whole response's usage, its grounding search counted (geminiUsage's report plus withGroundedSearch). */
export function responseUsage(response: Json): TokenUsage | undefined {
  return withGroundedSearch(
    usageFromGemini(response.usageMetadata as GeminiUsageWire | undefined),
    candidatesOf(response).reduce(
      (most, candidate) => Math.max(most, groundedSearches(candidate.groundingMetadata)),
      0,
    ),
  );
}

/** The candidate's Google Search grounding as `annotations` on its delta, over `text` (its answer so far). */
function withGrounding(delta: Json, text: string, candidate: Json): void {
  const annotations = groundingCitations(text, candidate.groundingMetadata);
  if (annotations.length > 0) delta.annotations = annotations;
}

/**
 * The searches a grounded answer ran: the queries Gemini reports (`webSearchQueries`), at least one once
 * it is grounded. Gemini 3 bills each query; Gemini 2.x bills the grounded prompt once (web-native.ts).
 */
function withGroundedSearch(usage: TokenUsage | undefined, searches: number): TokenUsage | undefined {
  return usage && searches > 0 ? { ...usage, webSearches: searches } : usage;
}

/** A delta made whole: content null when absent, tool calls without stream indexes. */
function messageOf(delta: Json): Json {
  const message: Json = { role: "assistant", content: null, refusal: null, ...delta };
  if (Array.isArray(delta.tool_calls))
    message.tool_calls = (delta.tool_calls as Json[]).map(({ index: _index, ...call }) => call);
  return message;
}

/** Gemini's native finish reason of the first candidate, for the usage record. */
export function geminiFinishReason(response: Json): string | undefined {
  const reason = candidatesOf(response)[0]?.finishReason;
  if (typeof reason === "string") return reason;
  const feedback = response.promptFeedback as Json | undefined;
  return typeof feedback?.blockReason === "string" ? feedback.blockReason : undefined;
}

/** Streaming: each Gemini chunk → OpenAI chunks, remembering roles sent, tool indexes and usage. */
export class GeminiChunkMapper {
  private readonly roleSent = new Set<number>();
  private readonly toolCount = new Map<number, number>();
  private readonly calledTools = new Set<number>();
  private readonly ids = new CallIds("stream");
  private finishedAny = false;
  private searchCount = 0;
  /** Each candidate's text so far: grounding (on the last chunks) indexes the whole answer. */
  private readonly texts = new Map<number, string>();
  private reported: TokenUsage | undefined;

  /** The last usage reported, with the grounding search counted once if the answer was grounded. */
  get usage(): TokenUsage | undefined {
    return withGroundedSearch(this.reported, this.searchCount);
  }

  /** The searches the answer's grounding has shown so far (0 until its `groundingMetadata` arrives). */
  get searches(): number {
    return this.searchCount;
  }

  map(response: Json): ChunkWire[] {
    const usage = usageFromGemini(response.usageMetadata as GeminiUsageWire | undefined);
    if (usage) this.reported = usage;
    const base = {
      id: typeof response.responseId === "string" ? response.responseId : undefined,
      object: "chat.completion.chunk",
      model: response.modelVersion,
    };
    const chunks: ChunkWire[] = [];
    const candidates = candidatesOf(response);
    if (candidates.length === 0 && geminiFinishReason(response)) {
      this.finishedAny = true;
      chunks.push({
        ...base,
        choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: "content_filter" }],
      });
    }
    candidates.forEach((candidate, position) => {
      const index = typeof candidate.index === "number" ? candidate.index : position;
      const firstTool = this.toolCount.get(index) ?? 0;
      const { delta, calledTools } = mapParts(partsOf(candidate), this.ids, firstTool);
      const text = (this.texts.get(index) ?? "") + (typeof delta.content === "string" ? delta.content : "");
      this.texts.set(index, text);
      this.searchCount = Math.max(this.searchCount, groundedSearches(candidate.groundingMetadata));
      withGrounding(delta, text, candidate);
      if (calledTools) {
        this.calledTools.add(index);
        this.toolCount.set(index, firstTool + (delta.tool_calls as Json[]).length);
      }
      if (!this.roleSent.has(index)) {
        this.roleSent.add(index);
        delta.role = "assistant";
      }
      const reason = openAiFinishReason(
        candidate.finishReason as string | undefined,
        this.calledTools.has(index),
      );
      if (reason) this.finishedAny = true;
      chunks.push({ ...base, choices: [{ index, delta, finish_reason: reason }] });
    });
    return chunks;
  }

  get finished(): boolean {
    return this.finishedAny;
  }
}
