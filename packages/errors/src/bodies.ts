import { ERROR_KINDS } from "./catalogue.js";
import type { GatewayError } from "./gateway-error.js";

export interface OpenAiErrorBody {
  error: { message: string; type: string; code?: string; metadata?: Record<string, unknown> };
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
  const body: OpenAiErrorBody = { error: { message: error.message, type: error.type } };
  if (error.code !== undefined) body.error.code = error.code;
  if (error.metadata !== undefined) body.error.metadata = error.metadata;
  return body;
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
