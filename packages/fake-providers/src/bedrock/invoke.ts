import { NO_CACHE } from "../anthropic/cache.js";
import { streamEventData } from "../anthropic/messages.js";
import { planMessage } from "../anthropic/plan.js";
import { parseMessagesRequest } from "../anthropic/request.js";
import { isRecord } from "../core/content.js";
import { randomId } from "../core/ids.js";
import { respondJson } from "../core/respond.js";
import type { ExchangeContext, ProviderError } from "../core/server.js";
import { malformed, sendBedrockError, validation } from "./errors.js";
import { respondEventStream } from "./stream.js";

/** Anthropic's Bedrock docs: the Messages body's version field on Bedrock. */
const BEDROCK_ANTHROPIC_VERSION = "bedrock-2023-05-31";

/**
 * InvokeModel(WithResponseStream) for a Claude model: Anthropic's Messages body with
 * `anthropic_version: "bedrock-2023-05-31"` and neither `model` (the model is in the path) nor `stream`
 * (the operation says it), which Bedrock refuses as extraneous keys; the rest is checked as the
 * Anthropic fake checks a Messages body. The stream's events are Anthropic's, each wrapped as
 * `{"bytes": base64}` in a `chunk` event, the last with `amazon-bedrock-invocationMetrics`.
 */
export async function handleInvoke(ctx: ExchangeContext, modelId: string, stream: boolean): Promise<void> {
  const checked = checkBedrockFields(ctx.body);
  if (checked) return sendBedrockError(ctx, checked);
  const {
    anthropic_version: _version,
    anthropic_beta: _beta,
    ...messages
  } = ctx.body as Record<string, unknown>;
  const request = parseMessagesRequest({ ...messages, model: modelId }, true);
  if ("status" in request) return sendBedrockError(ctx, malformed(`#: ${request.message ?? "invalid"}`));
  const plan = planMessage(request, false);
  const id = randomId("msg_bdrk_01", 22);
  const noUsage = ctx.steering.noUsage;
  ctx.res.setHeader("x-amzn-bedrock-input-token-count", String(plan.inputTokens));
  ctx.res.setHeader("x-amzn-bedrock-output-token-count", String(plan.outputTokens));
  if (!stream) {
    await respondJson(ctx, 200, {
      id,
      type: "message",
      role: "assistant",
      model: modelId,
      content: plan.content,
      stop_reason: plan.stopReason,
      stop_sequence: null,
      ...(noUsage
        ? {}
        : {
            usage: {
              input_tokens: plan.inputTokens,
              output_tokens: plan.outputTokens,
              cache_creation_input_tokens: 0,
              cache_read_input_tokens: 0,
            },
          }),
    });
    return;
  }
  const events = streamEventData(id, modelId, plan, noUsage, NO_CACHE).filter(
    (event) => event.type !== "ping",
  );
  const last = events.at(-1);
  if (last && !noUsage)
    last["amazon-bedrock-invocationMetrics"] = {
      inputTokenCount: plan.inputTokens,
      outputTokenCount: plan.outputTokens,
      invocationLatency: 1,
      firstByteLatency: 1,
    };
  await respondEventStream(
    ctx,
    events.map((event) => ({
      type: "chunk",
      payload: { bytes: Buffer.from(JSON.stringify(event), "utf8").toString("base64") },
    })),
  );
}

function checkBedrockFields(body: unknown): ProviderError | undefined {
  if (!isRecord(body))
    return validation("Malformed input request, please reformat your input and try again.");
  if (body.anthropic_version === undefined) return malformed("#: required key [anthropic_version] not found");
  if (body.anthropic_version !== BEDROCK_ANTHROPIC_VERSION) return validation("Invalid API version");
  for (const key of ["model", "stream"])
    if (key in body) return malformed(`#: extraneous key [${key}] is not permitted`);
  return undefined;
}
