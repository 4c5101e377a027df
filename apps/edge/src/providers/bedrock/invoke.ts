import type { ChatRequest } from "../../canonical/chat-request.js";
import { anthropicRequestBody } from "../../translate/anthropic/from-openai.js";
import { BEDROCK_ANTHROPIC_VERSION } from "./api.js";

/**
 * Claude's body for InvokeModel: Anthropic's Messages body with Bedrock's `anthropic_version` and
 * without `model` (the model is in the path) and `stream` (the operation says it), which Bedrock refuses
 * as extraneous keys; `metadata` is not among the fields Bedrock's Anthropic API takes either.
 */
export function bedrockAnthropicBody(
  request: ChatRequest,
  modelId: string,
  outputCap = 0,
): Record<string, unknown> {
  const {
    model: _model,
    stream: _stream,
    metadata: _metadata,
    ...rest
  } = anthropicRequestBody(request, modelId, false, outputCap);
  return { anthropic_version: BEDROCK_ANTHROPIC_VERSION, ...rest };
}
