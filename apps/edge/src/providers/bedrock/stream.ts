import type { ChunkWire } from "../../canonical/wire.js";
import {
  type ConverseUsageWire,
  finishFromConverse,
  usageFromConverse,
} from "../../translate/bedrock/converse-response.js";
import { AnthropicStreamMapper } from "../anthropic/stream.js";
import { type AttemptSignals, classifyError } from "../http.js";
import type { StreamEvent } from "../types.js";
import { bedrockFailure } from "./errors.js";
import { type EventMessage, EventStreamFrames } from "./frames.js";

type Json = Record<string, unknown>;

/** Maps one decoded message; `finished` once the stream's last event is in. */
interface MessageMapper {
  map(message: EventJson): StreamEvent[];
  readonly finished: boolean;
}

interface EventJson {
  readonly type: string;
  readonly body: Json;
}

/**
 * An exception event (`:message-type` `exception`, `:exception-type` e.g. `throttlingException`,
 * payload `{message}`) or an error message as an error stream event, named by the exception.
 */
function exceptionEvent(message: EventMessage, body: Json): StreamEvent {
  const type = message.headers[":exception-type"] ?? message.headers[":error-code"] ?? "exception";
  const name = type.charAt(0).toUpperCase() + type.slice(1);
  const text = typeof body.message === "string" ? body.message : (message.headers[":error-message"] ?? type);
  const failure = bedrockFailure(name, 500, text);
  return { type: "error", message: failure.message, code: failure.code };
}

/**
 * InvokeModelWithResponseStream for Claude: each `chunk` event's payload is `{"bytes": base64}` holding one
 * Anthropic stream event (Anthropic's Bedrock docs), mapped exactly as Anthropic's own stream is. The last
 * event also carries `amazon-bedrock-invocationMetrics`, which the token counts already in the Anthropic
 * events make redundant.
 */
class InvokeChunkMapper implements MessageMapper {
  private readonly anthropic = new AnthropicStreamMapper();

  map(event: EventJson): StreamEvent[] {
    if (event.type !== "chunk" || typeof event.body.bytes !== "string") return [];
    const data = Buffer.from(event.body.bytes, "base64").toString("utf8");
    return this.anthropic.map({ event: undefined, data });
  }

  get finished(): boolean {
    return this.anthropic.finished;
  }
}

/**
 * ConverseStream (API reference, ConverseStreamOutput): `messageStart`, `contentBlockStart` (a toolUse's
 * id and name), `contentBlockDelta` (text, toolUse input or reasoning text), `contentBlockStop`,
 * `messageStop` (the stop reason) and `metadata` (usage), each event's payload the member's own JSON.
 */
class ConverseMapper implements MessageMapper {
  private readonly toolIndex = new Map<number, number>();
  private nextTool = 0;
  private done = false;

  constructor(private readonly id: string | undefined) {}

  map(event: EventJson): StreamEvent[] {
    const body = event.body;
    switch (event.type) {
      case "messageStart":
        return [this.chunk({ role: "assistant", content: "" })];
      case "contentBlockStart":
        return this.blockStart(Number(body.contentBlockIndex), (body.start as Json | undefined)?.toolUse);
      case "contentBlockDelta":
        return this.blockDelta(Number(body.contentBlockIndex), body.delta as Json | undefined);
      case "messageStop":
        return [this.chunk({}, finishFromConverse(body.stopReason))];
      case "metadata": {
        this.done = true;
        const usage = usageFromConverse(body.usage as ConverseUsageWire | undefined);
        return usage ? [{ type: "usage", usage }] : [];
      }
      default:
        return [];
    }
  }

  get finished(): boolean {
    return this.done;
  }

  private blockStart(index: number, toolUse: unknown): StreamEvent[] {
    if (typeof toolUse !== "object" || toolUse === null) return [];
    const use = toolUse as Json;
    const toolIndex = this.nextTool++;
    this.toolIndex.set(index, toolIndex);
    const call = { name: String(use.name ?? ""), arguments: "" };
    return [
      this.chunk({
        tool_calls: [{ index: toolIndex, id: String(use.toolUseId ?? ""), type: "function", function: call }],
      }),
    ];
  }

  private blockDelta(index: number, delta: Json | undefined): StreamEvent[] {
    if (typeof delta?.text === "string") return [this.chunk({ content: delta.text })];
    const reasoning = (delta?.reasoningContent as Json | undefined)?.text;
    if (typeof reasoning === "string") return [this.chunk({ reasoning })];
    const input = (delta?.toolUse as Json | undefined)?.input;
    const toolIndex = this.toolIndex.get(index);
    if (typeof input !== "string" || toolIndex === undefined) return [];
    return [this.chunk({ tool_calls: [{ index: toolIndex, function: { arguments: input } }] })];
  }

  private chunk(delta: Json, finishReason: string | null = null): StreamEvent {
    const chunk: ChunkWire = {
      id: this.id,
      object: "chat.completion.chunk",
      choices: [{ index: 0, delta, finish_reason: finishReason }],
    };
    return { type: "chunk", chunk };
  }
}

export function invokeStreamMapper(): MessageMapper {
  return new InvokeChunkMapper();
}

export function converseStreamMapper(requestId: string | undefined): MessageMapper {
  return new ConverseMapper(requestId);
}

/** Bedrock's binary event stream → canonical stream events, one network read at a time. */
export async function* bedrockStreamEvents(
  body: AsyncIterable<Uint8Array>,
  signals: AttemptSignals,
  mapper: MessageMapper,
): AsyncGenerator<StreamEvent> {
  const frames = new EventStreamFrames();
  try {
    for await (const bytes of body) {
      for (const message of frames.push(bytes)) {
        const mapped = mapMessage(message, mapper);
        yield* mapped;
        if (mapped.some((event) => event.type === "error")) return;
      }
    }
    if (!mapper.finished || frames.incomplete)
      yield { type: "error", message: "the provider closed the stream before finishing", code: "protocol" };
  } catch (error) {
    const failure = classifyError(error, signals);
    if (failure.kind === "cancelled") return;
    yield { type: "error", message: failure.message, code: failure.kind };
  }
}

function mapMessage(message: EventMessage, mapper: MessageMapper): StreamEvent[] {
  let body: Json;
  try {
    body = message.payload === "" ? {} : (JSON.parse(message.payload) as Json);
  } catch {
    return [{ type: "error", message: "the provider sent a malformed stream event", code: "protocol" }];
  }
  const kind = message.headers[":message-type"];
  if (kind === "exception" || kind === "error") return [exceptionEvent(message, body)];
  return mapper.map({ type: message.headers[":event-type"] ?? "", body });
}
