import type { GatewayError } from "@gw/errors";
import type { ChunkWire } from "../../canonical/wire.js";
import type { ResponseIdentity } from "../openai/chat-response.js";
import type { UsageRender } from "../openai/usage.js";
import { StreamRecord } from "../stream-record.js";
import type { StreamRenderer } from "../surface.js";
import { detailsOf, mergeReasoningDetails } from "./reasoning-state.js";
import type { ResponsesEcho } from "./request.js";
import {
  functionCallItem,
  itemIds,
  messageItem,
  outputTextPart,
  reasoningItem,
  refusalPart,
  responseObject,
  responsesUsage,
  statusFor,
} from "./response.js";

type Json = Record<string, unknown>;

/** A message's content part as it streams: answer text or a refusal. */
interface MessagePart {
  type: "output_text" | "refusal";
  text: string;
  /** The chat surface's `url_citation` annotations on this text (web citations), as they arrived. */
  annotations?: unknown[];
}

type OpenItem =
  | { kind: "reasoning"; index: number; text: string }
  | { kind: "message"; index: number; id: string; parts: MessagePart[] };

/** A function call being streamed; several may stream at once, their argument deltas interleaved. */
interface OpenCall {
  index: number;
  toolIndex: number;
  call: Json;
  args: string;
}

function wirePart(part: MessagePart): Json {
  return part.type === "refusal" ? refusalPart(part.text) : outputTextPart(part.text, part.annotations);
}

/** `event:` and `data:` lines, as OpenAI streams them; the SDKs dispatch on the data's `type`. */
function event(type: string, sequence: number, data: Json): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence, ...data })}\n\n`;
}

/**
 * Canonical chat chunks → the Responses API's semantic events: `response.created` and
 * `response.in_progress`, then per output item `output_item.added`, its part and deltas, their
 * `.done` events and `output_item.done`, and at the end `response.completed` (or
 * `response.incomplete`) carrying the whole response with usage and cost. A failure after the first
 * byte ends the stream with `response.failed`.
 */
export class ResponsesStreamRenderer extends StreamRecord implements StreamRenderer {
  private sequence = 0;
  private started = false;
  private failed = false;
  private open: OpenItem | undefined;
  /** Function calls under way, by their chat tool-call index. */
  private readonly calls = new Map<number, OpenCall>();
  /** Items by output index (an index is taken when an item starts, the item stored when it ends). */
  private readonly output: Json[] = [];
  private nextIndex = 0;
  /** Streamed reasoning details (reasoning-state.ts), and how many are in items already. */
  private readonly fragments: Json[] = [];
  private handedOut = 0;
  /** How many message items were opened (the first is `msg_<id>`). */
  private messages = 0;

  constructor(
    private readonly identity: ResponseIdentity,
    private readonly echo: ResponsesEcho,
  ) {
    super();
  }

  chunk(chunk: ChunkWire): string {
    let out = this.start();
    const choice = this.note(chunk);
    if (!choice) return out;
    const delta = (choice.delta ?? {}) as Json;
    this.fragments.push(...detailsOf(delta));
    if (this.echo.reasoning.summary && typeof delta.reasoning === "string" && delta.reasoning)
      out += this.reasoningDelta(delta.reasoning);
    if (typeof delta.content === "string" && delta.content)
      out += this.messageDelta("output_text", delta.content);
    if (Array.isArray(delta.annotations)) out += this.annotationsAdded(delta.annotations);
    if (typeof delta.refusal === "string" && delta.refusal)
      out += this.messageDelta("refusal", delta.refusal);
    if (Array.isArray(delta.tool_calls))
      for (const call of delta.tool_calls as Json[]) out += this.toolCallDelta(call);
    return out;
  }

  error(failure: GatewayError): string {
    this.failed = true;
    // OpenAI's Responses API keeps a string code here (its own contract, not OpenRouter's envelope).
    const response = this.response("failed", null, {
      code: failure.code ?? "server_error",
      message: failure.message,
    });
    return this.start() + this.emit("response.failed", { response });
  }

  end(usage: UsageRender): string {
    if (this.failed) return "";
    // The open item closes first: the final response lists every item.
    const opening = this.start() + this.close() + this.remainingReasoning();
    const { status, incomplete } = statusFor(this.finish);
    const response = { ...this.response(status, incomplete, null), usage: responsesUsage(usage) };
    const type = status === "incomplete" ? "response.incomplete" : "response.completed";
    return opening + this.emit(type, { response });
  }

  private response(
    status: "in_progress" | "completed" | "incomplete" | "failed",
    incomplete: Json | null,
    error: Json | null,
  ): Json {
    return responseObject({
      identity: this.identity,
      echo: this.echo,
      status,
      output: this.output.filter((item) => item !== undefined),
      usage: null,
      incomplete,
      error,
    });
  }

  private emit(type: string, data: Json): string {
    return event(type, this.sequence++, data);
  }

  private start(): string {
    if (this.started) return "";
    this.started = true;
    const response = this.response("in_progress", null, null);
    return this.emit("response.created", { response }) + this.emit("response.in_progress", { response });
  }

  private get id(): string {
    return this.identity.generationId;
  }

  private reasoningDelta(text: string): string {
    let out = "";
    if (this.open?.kind !== "reasoning") {
      out += this.close();
      const index = this.nextIndex++;
      this.open = { kind: "reasoning", index, text: "" };
      const item = reasoningItem(itemIds.reasoning(this.id, index), undefined, []);
      out += this.emit("response.output_item.added", { output_index: index, item });
      out += this.emit("response.reasoning_summary_part.added", {
        ...this.where(index, itemIds.reasoning(this.id, index)),
        summary_index: 0,
        part: { type: "summary_text", text: "" },
      });
    }
    this.open.text += text;
    return (
      out +
      this.emit("response.reasoning_summary_text.delta", {
        ...this.where(this.open.index, itemIds.reasoning(this.id, this.open.index)),
        summary_index: 0,
        delta: text,
      })
    );
  }

  /** Reasoning details not yet handed out in an item since the last one (fragments merged). */
  private takeDetails(): Json[] {
    const details = mergeReasoningDetails(this.fragments.slice(this.handedOut));
    this.handedOut = this.fragments.length;
    return details;
  }

  /**
   * Provider reasoning state that arrived outside a summarised reasoning item (no summary asked for,
   * or a signature after the item closed) as one more reasoning item, so the client can send it back.
   */
  private remainingReasoning(): string {
    const details = this.takeDetails();
    if (details.length === 0) return "";
    const index = this.nextIndex++;
    const item = reasoningItem(itemIds.reasoning(this.id, index), undefined, details);
    this.output[index] = item;
    return (
      this.emit("response.output_item.added", { output_index: index, item }) +
      this.emit("response.output_item.done", { output_index: index, item })
    );
  }

  /** Text or refusal for the open message item (opened, or its next content part, as needed). */
  private messageDelta(type: MessagePart["type"], text: string): string {
    let out = "";
    if (this.open?.kind !== "message") {
      out += this.close();
      const index = this.nextIndex++;
      const id = itemIds.message(this.id, this.messages++ === 0 ? 0 : index);
      this.open = { kind: "message", index, id, parts: [] };
      out += this.emit("response.output_item.added", {
        output_index: index,
        item: messageItem(id, [], "in_progress"),
      });
    }
    const open = this.open;
    if (open.parts.at(-1)?.type !== type) {
      out += this.closePart(open);
      open.parts.push({ type, text: "" });
      out += this.emit("response.content_part.added", {
        ...this.where(open.index, open.id),
        content_index: open.parts.length - 1,
        part: wirePart({ type, text: "" }),
      });
    }
    const part = open.parts.at(-1) as MessagePart;
    part.text += text;
    const where = { ...this.where(open.index, open.id), content_index: open.parts.length - 1 };
    if (type === "refusal") return out + this.emit("response.refusal.delta", { ...where, delta: text });
    return out + this.emit("response.output_text.delta", { ...where, delta: text, logprobs: [] });
  }

  /**
   * Web citations on the open output_text part, as the Responses API streams them: one
   * `response.output_text.annotation.added` each (its own `url_citation` form), and on the part's
   * `.done` events and the completed item. Offsets index the part's text; ones outside it are left out.
   */
  private annotationsAdded(annotations: unknown[]): string {
    const open = this.open;
    const part = open?.kind === "message" ? open.parts.at(-1) : undefined;
    if (open?.kind !== "message" || part?.type !== "output_text") return "";
    const known = (outputTextPart(part.text, part.annotations).annotations as Json[]).length;
    part.annotations = [...(part.annotations ?? []), ...annotations];
    const added = outputTextPart(part.text, annotations).annotations as Json[];
    const where = { ...this.where(open.index, open.id), content_index: open.parts.length - 1 };
    return added
      .map((annotation, index) =>
        this.emit("response.output_text.annotation.added", {
          ...where,
          annotation_index: known + index,
          annotation,
        }),
      )
      .join("");
  }

  /** Ends the message's current content part: its `.done` event, then `content_part.done`. */
  private closePart(open: Extract<OpenItem, { kind: "message" }>): string {
    const part = open.parts.at(-1);
    if (!part) return "";
    const where = { ...this.where(open.index, open.id), content_index: open.parts.length - 1 };
    const done =
      part.type === "refusal"
        ? this.emit("response.refusal.done", { ...where, refusal: part.text })
        : this.emit("response.output_text.done", { ...where, text: part.text, logprobs: [] });
    return done + this.emit("response.content_part.done", { ...where, part: wirePart(part) });
  }

  private toolCallDelta(call: Json): string {
    let out = "";
    const toolIndex = typeof call.index === "number" ? call.index : 0;
    const fn = (call.function ?? {}) as Json;
    let open = this.calls.get(toolIndex);
    if (!open) {
      out += this.closeOpen();
      open = { index: this.nextIndex++, toolIndex, call, args: "" };
      this.calls.set(toolIndex, open);
      const item = functionCallItem(
        this.id,
        toolIndex,
        { ...call, function: { ...fn, arguments: "" } },
        "in_progress",
      );
      out += this.emit("response.output_item.added", { output_index: open.index, item });
    }
    const args = typeof fn.arguments === "string" ? fn.arguments : "";
    if (!args) return out;
    open.args += args;
    return (
      out +
      this.emit("response.function_call_arguments.delta", {
        ...this.where(open.index, itemIds.functionCall(this.id, toolIndex)),
        delta: args,
      })
    );
  }

  private where(outputIndex: number, itemId: string): Json {
    return { item_id: itemId, output_index: outputIndex };
  }

  /** Ends every item under way: its `.done` events, then `output_item.done` with the whole item. */
  private close(): string {
    let out = this.closeOpen();
    for (const call of this.calls.values()) out += this.closeFunction(call);
    this.calls.clear();
    return out;
  }

  /** Ends the open reasoning or message item (function calls stay open: their deltas may interleave). */
  private closeOpen(): string {
    const open = this.open;
    this.open = undefined;
    if (open?.kind === "reasoning") return this.closeReasoning(open);
    if (open?.kind === "message") return this.closeMessage(open);
    return "";
  }

  private closeReasoning(open: Extract<OpenItem, { kind: "reasoning" }>): string {
    const id = itemIds.reasoning(this.id, open.index);
    const where = { ...this.where(open.index, id), summary_index: 0 };
    const item = reasoningItem(id, open.text, this.takeDetails());
    this.output[open.index] = item;
    return (
      this.emit("response.reasoning_summary_text.done", { ...where, text: open.text }) +
      this.emit("response.reasoning_summary_part.done", {
        ...where,
        part: { type: "summary_text", text: open.text },
      }) +
      this.emit("response.output_item.done", { output_index: open.index, item })
    );
  }

  private closeMessage(open: Extract<OpenItem, { kind: "message" }>): string {
    const item = messageItem(open.id, open.parts.map(wirePart), "completed");
    this.output[open.index] = item;
    return this.closePart(open) + this.emit("response.output_item.done", { output_index: open.index, item });
  }

  private closeFunction(open: OpenCall): string {
    const fn = (open.call.function ?? {}) as Json;
    const call = { ...open.call, function: { ...fn, arguments: open.args } };
    const item = functionCallItem(this.id, open.toolIndex, call, "completed");
    this.output[open.index] = item;
    return (
      this.emit("response.function_call_arguments.done", {
        ...this.where(open.index, itemIds.functionCall(this.id, open.toolIndex)),
        name: item.name,
        arguments: open.args,
      }) + this.emit("response.output_item.done", { output_index: open.index, item })
    );
  }
}
