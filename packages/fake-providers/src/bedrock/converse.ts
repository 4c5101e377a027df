import { isRecord, limitReply, replyText, streamPieces } from "../core/content.js";
import { respondJson } from "../core/respond.js";
import type { ExchangeContext, ProviderError } from "../core/server.js";
import { estimateTokens } from "../core/tokens.js";
import { sendBedrockError, validation } from "./errors.js";
import { checkConverseMedia } from "./media.js";
import { respondEventStream, type StreamedEvent } from "./stream.js";

// Converse's request members (API reference, Converse "Request Syntax"); the model id is in the path.
const REQUEST_FIELDS = [
  "messages",
  "system",
  "inferenceConfig",
  "toolConfig",
  "guardrailConfig",
  "additionalModelRequestFields",
  "additionalModelResponseFieldPaths",
  "promptVariables",
  "requestMetadata",
  "performanceConfig",
];
const INFERENCE_FIELDS = ["maxTokens", "temperature", "topP", "stopSequences"];
const BLOCK_KINDS = [
  "text",
  "image",
  "document",
  "video",
  "toolUse",
  "toolResult",
  "guardContent",
  "cachePoint",
  "reasoningContent",
];

interface Planned {
  readonly text: string;
  readonly stopReason: "end_turn" | "max_tokens";
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/**
 * Converse / ConverseStream for a non-Anthropic model: the body is checked as the service does (unknown
 * members, roles that must alternate starting with a user turn, empty content, one member per content
 * block) and answered with the fake's echo, as Converse's `output.message` or as ConverseStream's
 * events (messageStart, contentBlockDelta…, contentBlockStop, messageStop, metadata).
 */
export async function handleConverse(ctx: ExchangeContext, stream: boolean): Promise<void> {
  const refused = checkConverse(ctx.body);
  if (refused) return sendBedrockError(ctx, refused);
  const plan = planReply(ctx.body as Record<string, unknown>);
  const usage = {
    inputTokens: plan.inputTokens,
    outputTokens: plan.outputTokens,
    totalTokens: plan.inputTokens + plan.outputTokens,
  };
  if (!stream) {
    ctx.res.setHeader("x-amzn-requestid", ctx.requestId);
    await respondJson(ctx, 200, {
      output: { message: { role: "assistant", content: [{ text: plan.text }] } },
      stopReason: plan.stopReason,
      ...(ctx.steering.noUsage ? {} : { usage }),
      metrics: { latencyMs: 1 },
    });
    return;
  }
  const events: StreamedEvent[] = [
    { type: "messageStart", payload: { role: "assistant" } },
    ...streamPieces(plan.text).map((text) => ({
      type: "contentBlockDelta",
      payload: { contentBlockIndex: 0, delta: { text } },
    })),
    { type: "contentBlockStop", payload: { contentBlockIndex: 0 } },
    { type: "messageStop", payload: { stopReason: plan.stopReason } },
    { type: "metadata", payload: { ...(ctx.steering.noUsage ? {} : { usage }), metrics: { latencyMs: 1 } } },
  ];
  await respondEventStream(ctx, events);
}

function checkConverse(body: unknown): ProviderError | undefined {
  if (!isRecord(body))
    return validation("Malformed input request, please reformat your input and try again.");
  const unknown = Object.keys(body).find((key) => !REQUEST_FIELDS.includes(key));
  if (unknown !== undefined) return validation(`Unknown parameter in input: "${unknown}"`);
  if (!Array.isArray(body.messages) || body.messages.length === 0)
    return validation("The messages field is required and must contain at least one message.");
  const inference = body.inferenceConfig;
  if (isRecord(inference)) {
    const extra = Object.keys(inference).find((key) => !INFERENCE_FIELDS.includes(key));
    if (extra !== undefined) return validation(`Unknown parameter in inferenceConfig: "${extra}"`);
  }
  return checkTurns(body.messages) ?? checkConverseMedia(body.messages);
}

function checkTurns(messages: readonly unknown[]): ProviderError | undefined {
  let previous: unknown;
  for (const [index, message] of messages.entries()) {
    if (!isRecord(message) || (message.role !== "user" && message.role !== "assistant"))
      return validation(`messages.${index}.role: must be user or assistant`);
    if (index === 0 && message.role !== "user")
      return validation(
        "A conversation must start with a user message. Try again with a conversation that starts with a user message.",
      );
    if (message.role === previous)
      return validation(
        "A conversation must alternate between user and assistant roles. Make sure the conversation alternates between user and assistant roles and try again.",
      );
    previous = message.role;
    if (!Array.isArray(message.content) || message.content.length === 0)
      return validation(
        `The content field in the Message object at messages.${index} is empty. Add a ContentBlock object to the content field and try again.`,
      );
    for (const block of message.content) {
      const kinds = isRecord(block) ? Object.keys(block).filter((key) => BLOCK_KINDS.includes(key)) : [];
      if (!isRecord(block) || kinds.length !== 1 || Object.keys(block).length !== 1)
        return validation(`messages.${index}.content: a ContentBlock must have exactly one member`);
    }
  }
  return undefined;
}

function planReply(body: Record<string, unknown>): Planned {
  const messages = body.messages as Record<string, unknown>[];
  const last = messages.at(-1);
  const said = ((last?.content ?? []) as Record<string, unknown>[])
    .flatMap((block) => (typeof block.text === "string" ? [block.text] : []))
    .join(" ");
  const maxTokens = isRecord(body.inferenceConfig)
    ? (body.inferenceConfig.maxTokens as number | undefined)
    : undefined;
  const reply = limitReply(replyText(said, { demo: false }), maxTokens);
  const inputTokens = estimateTokens(JSON.stringify(messages) + JSON.stringify(body.system ?? ""));
  return {
    text: reply.text,
    stopReason: reply.truncated ? "max_tokens" : "end_turn",
    inputTokens,
    outputTokens: estimateTokens(reply.text),
  };
}
