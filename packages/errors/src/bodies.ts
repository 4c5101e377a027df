import { ERROR_KINDS } from "./catalogue.js";
import type { GatewayError } from "./gateway-error.js";

/**
 * OpenRouter's envelope: `code` is the HTTP status as a number (`@openrouter/sdk` validates it as an
 * integer to raise its typed errors); the gateway's reason string is `metadata.reason`.
 */
export interface OpenAiErrorBody {
  error: { message: string; type: string; code: number; metadata?: Record<string, unknown> };
}

/**
 * The `error` of a chat or completions chunk when a stream fails after its first byte (OpenRouter's
 * in-band form): the status the request would have had, and `metadata.error_type` (OpenRouter's
 * error-type vocabulary, which `@openrouter/sdk` requires whenever `metadata` is present).
 */
export interface OpenAiStreamError {
  message: string;
  type: string;
  code: number;
  metadata: { error_type: string; reason?: string };
}

export interface AnthropicErrorBody {
  type: "error";
  error: { type: string; message: string; code?: string };
  request_id?: string;
}

export interface GeminiErrorBody {
  error: { code: number; message: string; status: string; type: string };
}

/** The gateway's own envelope, used on /v1 normalized routes and /api/v1 management routes. */
export function openAiErrorBody(error: GatewayError): OpenAiErrorBody {
  const body: OpenAiErrorBody = { error: { message: error.message, type: error.type, code: error.status } };
  const metadata = reasonedMetadata(error);
  if (metadata !== undefined) body.error.metadata = metadata;
  return body;
}

/** The in-band error of a chat or completions stream (see OpenAiStreamError). */
export function openAiStreamError(error: GatewayError): OpenAiStreamError {
  const metadata: OpenAiStreamError["metadata"] = { error_type: ERROR_KINDS[error.kind].errorType };
  if (error.code !== undefined) metadata.reason = error.code;
  return { message: error.message, type: error.type, code: error.status, metadata };
}

/**
 * The error's metadata with its reason string (what `code` carried before OpenRouter's contract) as
 * `reason`: the gateway's own code wins over a `reason` already in the metadata, so that one key names
 * the catalogue entry on every route.
 */
function reasonedMetadata(error: GatewayError): Record<string, unknown> | undefined {
  if (error.code === undefined) return error.metadata;
  return { ...error.metadata, reason: error.code };
}

export function anthropicErrorBody(error: GatewayError, requestId?: string): AnthropicErrorBody {
  const body: AnthropicErrorBody = {
    type: "error",
    error: { type: ERROR_KINDS[error.kind].anthropic, message: error.message },
  };
  if (error.code !== undefined) body.error.code = error.code;
  if (requestId !== undefined) body.request_id = requestId;
  return body;
}

export function geminiErrorBody(error: GatewayError): GeminiErrorBody {
  const kind = ERROR_KINDS[error.kind];
  return { error: { code: kind.status, message: error.message, status: kind.gemini, type: kind.type } };
}
