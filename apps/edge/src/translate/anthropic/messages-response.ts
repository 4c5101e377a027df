import type { GatewayError } from "@gw/errors";
import { picoToUsdNumber } from "@gw/money";
import type { ChunkWire, CompletionWire } from "../../canonical/wire.js";
import type { ResponseIdentity } from "../openai/chat-response.js";
import type { UsageRender } from "../openai/usage.js";
import { StreamRecord } from "../stream-record.js";
import type { StreamRenderer, Surface } from "../surface.js";
import { citationLocations, citedTextBlocks } from "./cited-text.js";
import { ANTHROPIC_REASONING_FORMAT } from "./to-openai.js";

type Json = Record<string, unknown>;

const STOP_REASONS: Readonly<Record<string, string>> = {
  stop: "end_turn",
  length: "max_tokens",
  tool_calls: "tool_use",
  function_call: "tool_use",
  content_filter: "refusal",
};

/** OpenAI `finish_reason` → Anthropic `stop_reason` (wire-formats §4.5). */
export function anthropicStopReason(finishReason: string | null | undefined): string | null {
  if (!finishReason) return null;
  return STOP_REASONS[finishReason] ?? "end_turn";
}

/** Canonical usage in Anthropic's accounting: `input_tokens` excludes cache reads and writes. */
export function anthropicUsage({ usage, chargedPico, estimated }: UsageRender): Json {
  return {
    input_tokens: Math.max(0, usage.promptTokens - usage.cachedTokens - usage.cacheWriteTokens),
    output_tokens: usage.completionTokens,
    cache_creation_input_tokens: usage.cacheWriteTokens,
    cache_read_input_tokens: usage.cachedTokens,
    // The gateway's additions, as on the chat surface; Anthropic's SDK ignores unknown fields.
    cost: picoToUsdNumber(chargedPico),
    estimated,
  };
}

/** Tool-call arguments as the object Anthropic carries; text that is not JSON is kept under `_raw`. */
function toolInput(text: string | null | undefined): unknown {
  if (!text) return {};
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? value : { _raw: text };
  } catch {
    return { _raw: text };
  }
}

/**
 * Thinking blocks only when they carry Anthropic's own signature: a thinking block without a valid
 * one would be refused when the client sends the turn back.
 */
function thinkingBlocks(details: unknown): Json[] {
  if (!Array.isArray(details)) return [];
  return details.flatMap((detail: Json): Json[] => {
    if (detail?.format !== ANTHROPIC_REASONING_FORMAT) return [];
    if (detail.type === "reasoning.text")
      return [{ type: "thinking", thinking: detail.text ?? "", signature: detail.signature ?? "" }];
    if (detail.type === "reasoning.encrypted") return [{ type: "redacted_thinking", data: detail.data }];
    return [];
  });
}

/** A canonical completion as an Anthropic Message (first choice; Anthropic has no `n`). */
export function renderMessage(body: CompletionWire, identity: ResponseIdentity, usage: UsageRender): Json {
  const choice = body.choices[0];
  const message = (choice?.message ?? {}) as Json;
  const content: Json[] = [...thinkingBlocks(message.reasoning_details)];
  if (typeof message.content === "string" && message.content.length > 0)
    content.push(...citedTextBlocks(message.content, message.annotations));
  for (const call of (message.tool_calls ?? []) as Json[]) {
    const fn = (call.function ?? {}) as Json;
    content.push({ type: "tool_use", id: call.id, name: fn.name, input: toolInput(fn.arguments as string) });
  }
  return {
    id: identity.generationId,
    type: "message",
    role: "assistant",
    model: identity.model,
    content,
    stop_reason: anthropicStopReason(choice?.finish_reason) ?? "end_turn",
    stop_sequence: null,
    usage: anthropicUsage(usage),
    provider: identity.provider,
  };
}

/** `event:` and `data:` lines: Anthropic's SDK dispatches on the event name. */
export function anthropicEvent(type: string, data: Json): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

type OpenBlock =
  | { kind: "text" }
  | { kind: "thinking" }
  | { kind: "redacted" }
  | { kind: "tool"; toolIndex: number };

/**
 * Canonical chunks → Anthropic stream events (wire-formats §4.7): one `message_start`, blocks
 * numbered 0…n each started before its deltas and stopped before the next, then `message_delta`
 * with the stop reason and the whole usage, then `message_stop`.
 */
export class AnthropicStreamRenderer extends StreamRecord implements StreamRenderer {
  private started = false;
  private failed = false;
  private open: OpenBlock | undefined;
  private nextIndex = 0;
  /** The answer's text so far: a citation's span indexes it. */
  private content = "";

  constructor(private readonly identity: ResponseIdentity) {
    super();
  }

  chunk(chunk: ChunkWire): string {
    let out = this.start();
    const choice = this.note(chunk);
    if (!choice) return out;
    const delta = (choice.delta ?? {}) as Json;
    // Only Anthropic-tagged reasoning becomes thinking blocks: unsigned reasoning from other
    // providers has no valid Anthropic form (see thinkingBlocks above).
    for (const detail of anthropicDetails(delta.reasoning_details)) out += this.reasoningDetail(detail);
    if (typeof delta.content === "string" && delta.content) out += this.text(delta.content);
    out += this.citations(delta.annotations);
    for (const call of (delta.tool_calls ?? []) as Json[]) out += this.toolCall(call);
    if (choice.finish_reason) out += this.closeBlock();
    return out;
  }

  error(failure: GatewayError): string {
    this.failed = true;
    const type = failure.code === "overloaded_error" ? failure.code : "api_error";
    return this.start() + anthropicEvent("error", { error: { type, message: failure.message } });
  }

  end(usage: UsageRender): string {
    if (this.failed) return "";
    return (
      this.start() +
      this.closeBlock() +
      anthropicEvent("message_delta", {
        delta: { stop_reason: anthropicStopReason(this.finish) ?? "end_turn", stop_sequence: null },
        usage: anthropicUsage(usage),
      }) +
      anthropicEvent("message_stop", {})
    );
  }

  private reasoningDetail(detail: Json): string {
    if (detail.type === "reasoning.encrypted")
      return (
        this.openBlock({ kind: "redacted" }, { type: "redacted_thinking", data: detail.data }, false) +
        this.closeBlock()
      );
    let out = this.openBlock({ kind: "thinking" }, { type: "thinking", thinking: "", signature: "" }, true);
    if (typeof detail.text === "string" && detail.text)
      out += this.delta({ type: "thinking_delta", thinking: detail.text });
    if (typeof detail.signature === "string")
      out += this.delta({ type: "signature_delta", signature: detail.signature });
    return out;
  }

  private start(): string {
    if (this.started) return "";
    this.started = true;
    return anthropicEvent("message_start", {
      message: {
        id: this.identity.generationId,
        type: "message",
        role: "assistant",
        model: this.identity.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        // Most upstreams report input counts only at the end: the final message_delta carries them.
        usage: {
          input_tokens: 0,
          output_tokens: 0,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
        },
      },
    });
  }

  /**
   * Web citations (`url_citation` annotations) as Anthropic streams them, `citations_delta` events on a
   * text block: the open one, or, when the text's block has closed, an empty text block of their own.
   * The span cannot be cut out of text already sent, so each citation's `cited_text` carries it.
   */
  private citations(annotations: unknown): string {
    const cited = citationLocations(this.content, annotations);
    if (cited.length === 0) return "";
    let out = this.openBlock({ kind: "text" }, { type: "text", text: "", citations: [] }, true);
    for (const citation of cited) out += this.delta({ type: "citations_delta", citation });
    return out;
  }

  private text(text: string): string {
    this.content += text;
    return (
      this.openBlock({ kind: "text" }, { type: "text", text: "" }, true) +
      this.delta({ type: "text_delta", text })
    );
  }

  private toolCall(call: Json): string {
    const toolIndex = typeof call.index === "number" ? call.index : 0;
    const fn = (call.function ?? {}) as Json;
    let out = "";
    const same = this.open?.kind === "tool" && this.open.toolIndex === toolIndex;
    if (!same)
      out += this.openBlock(
        { kind: "tool", toolIndex },
        { type: "tool_use", id: call.id ?? `toolu_${toolIndex}`, name: fn.name ?? "", input: {} },
        false,
      );
    if (typeof fn.arguments === "string" && fn.arguments)
      out += this.delta({ type: "input_json_delta", partial_json: fn.arguments });
    return out;
  }

  /** Opens a block unless one of the same kind is open and may be continued. */
  private openBlock(block: OpenBlock, contentBlock: Json, continuable: boolean): string {
    if (continuable && this.open?.kind === block.kind) return "";
    const out = this.closeBlock();
    this.open = block;
    return (
      out + anthropicEvent("content_block_start", { index: this.nextIndex, content_block: contentBlock })
    );
  }

  private delta(delta: Json): string {
    return anthropicEvent("content_block_delta", { index: this.nextIndex, delta });
  }

  private closeBlock(): string {
    if (!this.open) return "";
    this.open = undefined;
    return anthropicEvent("content_block_stop", { index: this.nextIndex++ });
  }
}

function anthropicDetails(details: unknown): Json[] {
  if (!Array.isArray(details)) return [];
  return (details as Json[]).filter((detail) => detail?.format === ANTHROPIC_REASONING_FORMAT);
}

/** The Anthropic Messages surface. */
export const MESSAGES_SURFACE: Surface = {
  apiType: "messages",
  renderJson: renderMessage,
  stream: (identity) => new AnthropicStreamRenderer(identity),
};
