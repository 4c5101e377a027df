import type { TokenUsage } from "../../canonical/tokens.js";
import type { ChunkWire } from "../../canonical/wire.js";
import {
  ANTHROPIC_REASONING_FORMAT,
  type AnthropicUsageWire,
  openAiFinishReason,
  usageFromAnthropic,
} from "../../translate/anthropic/to-openai.js";
import { webCitation } from "../../translate/anthropic/web-citations.js";
import type { UrlCitation } from "../../translate/url-citation.js";
import { type AttemptSignals, classifyError } from "../http.js";
import { type SseEvent, SseParser } from "../sse.js";
import type { StreamEvent } from "../types.js";

type Json = Record<string, unknown>;

/**
 * Anthropic stream events → canonical OpenAI chunks (wire-formats §4.7): text deltas become content,
 * each tool_use block a tool call with streamed arguments, `message_delta` the finish reason. The
 * input usage of `message_start` and the cumulative usage of `message_delta` are merged.
 */
export class AnthropicStreamMapper {
  private id: string | undefined;
  private model: string | undefined;
  private readonly toolIndex = new Map<number, number>();
  private nextTool = 0;
  private usage: AnthropicUsageWire = {};
  private stopped = false;
  /** The text streamed so far (string length), so a block's citations know its span. */
  private textLength = 0;
  /** Per text block: where it starts and the web citations streamed for it (`citations_delta`). */
  private readonly cited = new Map<number, { start: number; citations: unknown[] }>();
  /** The web searches the model issued so far (`server_tool_use` blocks named web_search). */
  private searches = 0;

  map(event: SseEvent): StreamEvent[] {
    let data: Json;
    try {
      data = JSON.parse(event.data) as Json;
    } catch {
      return [{ type: "error", message: "the provider sent a malformed stream event", code: "protocol" }];
    }
    const type = event.event ?? (typeof data.type === "string" ? data.type : "");
    switch (type) {
      case "message_start":
        return this.start(data.message as Json | undefined);
      case "content_block_start":
        return this.blockStart(Number(data.index), data.content_block as Json | undefined);
      case "content_block_delta":
        return this.blockDelta(Number(data.index), data.delta as Json | undefined);
      case "content_block_stop":
        return this.blockStop(Number(data.index));
      case "message_delta":
        return this.messageDelta(
          data.delta as Json | undefined,
          data.usage as AnthropicUsageWire | undefined,
        );
      case "message_stop":
        this.stopped = true;
        return this.usageEvent();
      case "error":
        return [{ type: "error", ...describe(data.error) }];
      default:
        return [];
    }
  }

  get finished(): boolean {
    return this.stopped;
  }

  private start(message: Json | undefined): StreamEvent[] {
    this.id = typeof message?.id === "string" ? message.id : undefined;
    this.model = typeof message?.model === "string" ? message.model : undefined;
    this.mergeUsage(message?.usage as AnthropicUsageWire | undefined);
    return [this.chunk({ role: "assistant", content: "" })];
  }

  private blockStart(index: number, block: Json | undefined): StreamEvent[] {
    if (block?.type === "text") {
      this.cited.set(index, {
        start: this.textLength,
        citations: Array.isArray(block.citations) ? [...block.citations] : [],
      });
      if (typeof block.text === "string" && block.text !== "") {
        this.textLength += block.text.length;
        return [this.chunk({ content: block.text })];
      }
      return [];
    }
    if (block?.type === "server_tool_use" && block.name === "web_search") {
      // Anthropic runs the search as soon as the model has issued it, before its result or any text
      // that uses it is streamed: a count taken here is exact up to wherever the stream ends.
      this.searches++;
      return [{ type: "searches", count: this.searches }];
    }
    if (block?.type === "redacted_thinking")
      return [
        this.chunk({
          reasoning_details: [
            { type: "reasoning.encrypted", data: block.data, format: ANTHROPIC_REASONING_FORMAT, index: 0 },
          ],
        }),
      ];
    if (block?.type !== "tool_use") return [];
    const toolIndex = this.nextTool++;
    this.toolIndex.set(index, toolIndex);
    return [
      this.chunk({
        tool_calls: [
          { index: toolIndex, id: block.id, type: "function", function: { name: block.name, arguments: "" } },
        ],
      }),
    ];
  }

  private blockDelta(index: number, delta: Json | undefined): StreamEvent[] {
    if (delta?.type === "text_delta") {
      if (typeof delta.text === "string") this.textLength += delta.text.length;
      return [this.chunk({ content: delta.text })];
    }
    if (delta?.type === "citations_delta") {
      this.cited.get(index)?.citations.push(delta.citation);
      return [];
    }
    // Thinking travels as reasoning text plus Anthropic-tagged reasoning details, so an Anthropic
    // client gets the exact blocks (text and signature) back and other clients can ignore them.
    if (delta?.type === "thinking_delta")
      return [
        this.chunk({
          reasoning: delta.thinking,
          reasoning_details: [thinkingDetail({ text: delta.thinking })],
        }),
      ];
    if (delta?.type === "signature_delta")
      return [this.chunk({ reasoning_details: [thinkingDetail({ signature: delta.signature })] })];
    if (delta?.type === "input_json_delta") {
      const toolIndex = this.toolIndex.get(index);
      if (toolIndex === undefined) return [];
      return [
        this.chunk({ tool_calls: [{ index: toolIndex, function: { arguments: delta.partial_json } }] }),
      ];
    }
    return [];
  }

  /**
   * A text block's web citations, once its text is all out: a chunk whose delta carries them as
   * `annotations` over the block's span (OpenRouter streams annotations in a delta the same way).
   */
  private blockStop(index: number): StreamEvent[] {
    const block = this.cited.get(index);
    this.cited.delete(index);
    if (block === undefined) return [];
    const annotations = block.citations
      .map((citation) => webCitation(citation, block.start, this.textLength))
      .filter((annotation): annotation is UrlCitation => annotation !== undefined);
    return annotations.length > 0 ? [this.chunk({ annotations })] : [];
  }

  private messageDelta(delta: Json | undefined, usage: AnthropicUsageWire | undefined): StreamEvent[] {
    this.mergeUsage(usage);
    const stopReason = typeof delta?.stop_reason === "string" ? delta.stop_reason : undefined;
    if (!stopReason) return [];
    return [this.chunk({}, openAiFinishReason(stopReason))];
  }

  private mergeUsage(usage: AnthropicUsageWire | undefined): void {
    if (!usage) return;
    for (const [name, value] of Object.entries(usage))
      if (typeof value === "number") (this.usage as Record<string, number>)[name] = value;
    // The writes by TTL come as an object on message_start; a 1-hour write is priced higher.
    if (usage.cache_creation) this.usage.cache_creation = usage.cache_creation;
    // Cumulative, like the token counts: the last report of the searches run is the total.
    if (usage.server_tool_use) this.usage.server_tool_use = usage.server_tool_use;
  }

  private usageEvent(): StreamEvent[] {
    const usage: TokenUsage | undefined = usageFromAnthropic(this.usage);
    return usage ? [{ type: "usage", usage }] : [];
  }

  private chunk(delta: Json, finishReason: string | null = null): StreamEvent {
    const chunk: ChunkWire = {
      id: this.id,
      object: "chat.completion.chunk",
      model: this.model,
      choices: [{ index: 0, delta, finish_reason: finishReason }],
    };
    return { type: "chunk", chunk };
  }
}

function thinkingDetail(fields: Json): Json {
  return { type: "reasoning.text", ...fields, format: ANTHROPIC_REASONING_FORMAT, index: 0 };
}

function describe(error: unknown): { message: string; code: string | undefined } {
  const record = typeof error === "object" && error !== null ? (error as Json) : {};
  return {
    message:
      typeof record.message === "string" ? record.message : "the provider reported an error mid-stream",
    code: typeof record.type === "string" ? record.type : undefined,
  };
}

/** Upstream Anthropic SSE bytes → canonical stream events, one network chunk at a time. */
export async function* anthropicStreamEvents(
  body: AsyncIterable<Uint8Array>,
  signals: AttemptSignals,
): AsyncGenerator<StreamEvent> {
  const parser = new SseParser();
  const mapper = new AnthropicStreamMapper();
  try {
    for await (const bytes of body) {
      for (const event of parser.push(bytes)) {
        const mapped = mapper.map(event);
        yield* mapped;
        if (mapped.some((entry) => entry.type === "error")) return;
      }
    }
    for (const event of parser.end()) yield* mapper.map(event);
    if (!mapper.finished)
      yield { type: "error", message: "the provider closed the stream before finishing", code: "protocol" };
  } catch (error) {
    const failure = classifyError(error, signals);
    if (failure.kind === "cancelled") return;
    yield { type: "error", message: failure.message, code: failure.kind };
  }
}
