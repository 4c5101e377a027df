import type { GatewayError } from "@gw/errors";
import { picoToUsdNumber } from "@gw/money";
import type { ChunkWire, CompletionWire } from "../../canonical/wire.js";
import type { ResponseIdentity } from "../openai/chat-response.js";
import type { UsageRender } from "../openai/usage.js";
import { sseData } from "../sse.js";
import { StreamRecord } from "../stream-record.js";
import type { StreamFraming, StreamRenderer, Surface } from "../surface.js";
import { groundingMetadataOf } from "./grounding-render.js";
import { GEMINI_REASONING_FORMAT } from "./to-openai.js";

type Json = Record<string, unknown>;

const FINISH: Readonly<Record<string, string>> = {
  stop: "STOP",
  tool_calls: "STOP",
  function_call: "STOP",
  length: "MAX_TOKENS",
  content_filter: "SAFETY",
};

/** OpenAI `finish_reason` → Gemini `finishReason` (wire-formats §4.5). */
export function geminiFinishReason(reason: string | null | undefined): string {
  return (reason && FINISH[reason]) || "STOP";
}

/** Canonical usage in Gemini's accounting: candidates exclude thoughts. */
export function usageMetadata({ usage, chargedPico, estimated }: UsageRender): Json {
  return {
    promptTokenCount: usage.promptTokens,
    candidatesTokenCount: usage.completionTokens - usage.reasoningTokens,
    totalTokenCount: usage.promptTokens + usage.completionTokens,
    ...(usage.reasoningTokens > 0 ? { thoughtsTokenCount: usage.reasoningTokens } : {}),
    ...(usage.cachedTokens > 0 ? { cachedContentTokenCount: usage.cachedTokens } : {}),
    ...promptTokensDetails(usage),
    // The gateway's additions; @google/genai keeps unknown fields on the object.
    cost: picoToUsdNumber(chargedPico),
    estimated,
  };
}

/**
 * Gemini's prompt count by modality, where the provider reported media (from any format): the text is
 * what the media leave of the prompt. Absent without media, as before.
 */
function promptTokensDetails(usage: UsageRender["usage"]): Json {
  const media = [
    { modality: "IMAGE", tokenCount: usage.imageTokens ?? 0 },
    { modality: "AUDIO", tokenCount: usage.audioTokens ?? 0 },
    { modality: "DOCUMENT", tokenCount: usage.documentTokens ?? 0 },
  ].filter((detail) => detail.tokenCount > 0);
  if (media.length === 0) return {};
  const text = usage.promptTokens - media.reduce((sum, detail) => sum + detail.tokenCount, 0);
  return { promptTokensDetails: [{ modality: "TEXT", tokenCount: Math.max(0, text) }, ...media] };
}

function signatures(details: unknown): Map<string, string> {
  const found = new Map<string, string>();
  if (!Array.isArray(details)) return found;
  for (const detail of details as Json[])
    if (
      detail?.format === GEMINI_REASONING_FORMAT &&
      typeof detail.id === "string" &&
      typeof detail.data === "string"
    )
      found.set(detail.id, detail.data);
  return found;
}

function args(text: unknown): Json {
  if (typeof text !== "string" || !text) return {};
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Json)
      : { _raw: text };
  } catch {
    return { _raw: text };
  }
}

/** A canonical tool call as a Gemini part, with its thought signature when Gemini gave one. */
function callPart(call: Json, signed: Map<string, string>): Json {
  const fn = (call.function ?? {}) as Json;
  const part: Json = {
    functionCall: { ...(call.id ? { id: call.id } : {}), name: fn.name, args: args(fn.arguments) },
  };
  const signature = typeof call.id === "string" ? signed.get(call.id) : undefined;
  if (signature) part.thoughtSignature = signature;
  return part;
}

/** A canonical completion as a GenerateContentResponse. */
export function renderGenerateContent(
  body: CompletionWire,
  identity: ResponseIdentity,
  usage: UsageRender,
): Json {
  const candidates = body.choices.map((choice, position) => {
    const message = (choice.message ?? {}) as Json;
    const signed = signatures(message.reasoning_details);
    const parts: Json[] = [];
    // Thoughts as Gemini returns them with `includeThoughts: true`: text parts marked `thought`, ahead of
    // the answer (ai.google.dev, Gemini thinking, "Thought summaries"). A caller who did not ask for them
    // has none here: Gemini sends none, and other providers' thoughts are taken out (reasoning.exclude).
    if (typeof message.reasoning === "string" && message.reasoning)
      parts.push({ text: message.reasoning, thought: true });
    if (typeof message.content === "string" && message.content) parts.push({ text: message.content });
    for (const call of (message.tool_calls ?? []) as Json[]) parts.push(callPart(call, signed));
    const grounding =
      typeof message.content === "string"
        ? groundingMetadataOf(message.content, message.annotations)
        : undefined;
    return {
      content: { role: "model", parts },
      finishReason: geminiFinishReason(choice.finish_reason),
      index: choice.index ?? position,
      ...(grounding ? { groundingMetadata: grounding } : {}),
    };
  });
  return {
    candidates,
    usageMetadata: usageMetadata(usage),
    modelVersion: identity.model,
    responseId: identity.generationId,
  };
}

interface PendingCall {
  id: string | undefined;
  name: string;
  arguments: string;
}

/**
 * Canonical chunks → Gemini stream frames: text goes out as it arrives; tool-call arguments are
 * buffered until complete (Gemini sends whole `functionCall`s); the last frame carries the finish
 * reason and usage. Framed as SSE `data:` lines (alt=sse) or as one JSON array written progressively.
 */
export class GeminiStreamRenderer extends StreamRecord implements StreamRenderer {
  private readonly calls = new Map<number, PendingCall>();
  private readonly signed = new Map<string, string>();
  private frames = 0;
  private failed = false;
  /** The answer's text and its web citations so far: the last frame grounds them, as Gemini's does. */
  private content = "";
  private readonly annotations: unknown[] = [];

  constructor(
    private readonly identity: ResponseIdentity,
    private readonly array: boolean,
  ) {
    super();
  }

  chunk(chunk: ChunkWire): string {
    const choice = this.note(chunk);
    if (!choice) return "";
    const delta = (choice.delta ?? {}) as Json;
    for (const [id, signature] of signatures(delta.reasoning_details)) this.signed.set(id, signature);
    for (const call of (delta.tool_calls ?? []) as Json[]) this.collect(call);
    if (Array.isArray(delta.annotations)) this.annotations.push(...delta.annotations);
    if (typeof delta.content === "string") this.content += delta.content;
    const parts: Json[] = [];
    if (typeof delta.reasoning === "string" && delta.reasoning)
      parts.push({ text: delta.reasoning, thought: true });
    if (typeof delta.content === "string" && delta.content) parts.push({ text: delta.content });
    if (parts.length === 0) return "";
    return this.frame({ candidates: [{ content: { role: "model", parts }, index: 0 }] });
  }

  error(failure: GatewayError): string {
    this.failed = true;
    const status = failure.code === "timeout" ? "DEADLINE_EXCEEDED" : "INTERNAL";
    const error = { code: 500, message: failure.message, status };
    return this.frame({ error }) + (this.array ? "]" : "");
  }

  end(usage: UsageRender): string {
    if (this.failed) return "";
    const parts = [...this.calls.values()].map((call) =>
      callPart({ id: call.id, function: { name: call.name, arguments: call.arguments } }, this.signed),
    );
    const grounding = groundingMetadataOf(this.content, this.annotations);
    const last = this.frame({
      candidates: [
        {
          content: { role: "model", parts },
          finishReason: geminiFinishReason(this.finish),
          index: 0,
          ...(grounding ? { groundingMetadata: grounding } : {}),
        },
      ],
      usageMetadata: usageMetadata(usage),
    });
    return last + (this.array ? "]" : "");
  }

  private collect(call: Json): void {
    const index = typeof call.index === "number" ? call.index : 0;
    const fn = (call.function ?? {}) as Json;
    const pending = this.calls.get(index) ?? { id: undefined, name: "", arguments: "" };
    if (typeof call.id === "string") pending.id = call.id;
    if (typeof fn.name === "string") pending.name += fn.name;
    if (typeof fn.arguments === "string") pending.arguments += fn.arguments;
    this.calls.set(index, pending);
  }

  private frame(body: Json): string {
    const payload = { ...body, modelVersion: this.identity.model, responseId: this.identity.generationId };
    if (!this.array) return sseData(payload);
    const prefix = this.frames++ === 0 ? "[" : ",\r\n";
    return prefix + JSON.stringify(payload);
  }
}

/** Without `alt=sse` Gemini streams one JSON array; whitespace keeps an idle connection alive. */
const ARRAY_FRAMING: StreamFraming = {
  headers: {
    "Content-Type": "application/json; charset=utf-8",
    "Cache-Control": "no-cache",
    "X-Accel-Buffering": "no",
  },
  keepAlive: "\n",
};

/** The Gemini generateContent surface; `sse` picks the framing of streamGenerateContent. */
export function geminiSurface(sse: boolean): Surface {
  return {
    apiType: "generate_content",
    renderJson: renderGenerateContent,
    stream: (identity) => new GeminiStreamRenderer(identity, !sse),
    ...(sse ? {} : { framing: ARRAY_FRAMING }),
  };
}
