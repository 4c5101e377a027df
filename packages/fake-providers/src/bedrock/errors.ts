import { sendJson } from "../core/http.js";
import type { ExchangeContext, ProviderError } from "../core/server.js";

// Bedrock Runtime's errors (API reference, InvokeModel / Converse "Errors"; Common Errors for the
// signature and token ones): the exception's name in the `x-amzn-ErrorType` header, `{"message"}` as the
// body (`{"Message"}` for the signing layer's own refusals, as the service sends them).

const BY_STATUS: Readonly<Record<number, { type: string; message: string }>> = {
  400: { type: "ValidationException", message: "The request is invalid." },
  403: {
    type: "AccessDeniedException",
    message: "You don't have access to the model with the specified model ID.",
  },
  404: { type: "ResourceNotFoundException", message: "The specified resource could not be found." },
  408: { type: "ModelTimeoutException", message: "Model has timed out in processing the request." },
  424: { type: "ModelErrorException", message: "The model returned an error." },
  429: { type: "ThrottlingException", message: "Too many requests, please wait before trying again." },
  500: { type: "InternalServerException", message: "The server encountered an internal error." },
  503: { type: "ServiceUnavailableException", message: "Bedrock is unable to process your request." },
};

/** `code` names the exception when the status alone does not (403 UnrecognizedClientException, …). */
export function sendBedrockError(ctx: ExchangeContext, error: ProviderError): void {
  const known = BY_STATUS[error.status] ?? BY_STATUS[error.status >= 500 ? 500 : 400];
  const type = error.code ?? known?.type ?? "InternalServerException";
  const message = error.message ?? known?.message ?? "error";
  // The signing layer answers with a capitalised `Message` member (e.g. InvalidSignatureException).
  const body = SIGNING_ERRORS.has(type) ? { Message: message } : { message };
  const headers: Record<string, string> = {
    "x-amzn-ErrorType": `${type}:http://internal.amazon.com/coral/com.amazon.coral.service/`,
  };
  sendJson(ctx.res, error.status, body, headers);
}

const SIGNING_ERRORS = new Set([
  "InvalidSignatureException",
  "MissingAuthenticationTokenException",
  "IncompleteSignatureException",
]);

export const validation = (message: string): ProviderError => ({
  status: 400,
  code: "ValidationException",
  message,
});

/** Bedrock's wording for an InvokeModel body its model schema refuses. */
export const malformed = (detail: string): ProviderError =>
  validation(`Malformed input request: ${detail}, please reformat your input and try again.`);
