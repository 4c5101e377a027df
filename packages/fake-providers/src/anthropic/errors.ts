import { sendJson } from "../core/http.js";
import { type ExchangeContext, keyAccepted, type ProviderError } from "../core/server.js";

// Error bodies as the Anthropic API sends them: `{type: "error", error: {type, message}, request_id}` with the
// id also in the `request-id` header (set by the server core) and `retry-after` on 429.

export function sendAnthropicError(ctx: ExchangeContext, error: ProviderError): void {
  const headers: Record<string, string> = {};
  if (error.retryAfter !== undefined) {
    headers["retry-after"] = String(error.retryAfter);
    headers["anthropic-ratelimit-requests-remaining"] = "0";
  }
  sendJson(
    ctx.res,
    error.status,
    {
      type: "error",
      error: {
        type: anthropicErrorType(error.status),
        message: error.message ?? defaultMessage(error.status),
      },
      request_id: ctx.requestId,
    },
    headers,
  );
}

export function anthropicErrorType(status: number): string {
  switch (status) {
    case 401:
      return "authentication_error";
    case 402:
      return "billing_error";
    case 403:
      return "permission_error";
    case 404:
      return "not_found_error";
    case 413:
      return "request_too_large";
    case 429:
      return "rate_limit_error";
    case 504:
      return "timeout_error";
    case 529:
      return "overloaded_error";
    default:
      return status >= 500 ? "api_error" : "invalid_request_error";
  }
}

function defaultMessage(status: number): string {
  switch (status) {
    case 429:
      return "Number of request tokens has exceeded your per-minute rate limit.";
    case 529:
      return "Overloaded";
    case 404:
      return "Not found";
    default:
      return status >= 500 ? "Internal server error" : `Request failed with status ${status}`;
  }
}

/** Like the real API: a credential (`x-api-key`, or a Bearer token) and `anthropic-version` are both required. */
export function authenticateAnthropic(ctx: ExchangeContext): ProviderError | null {
  const apiKey = ctx.req.headers["x-api-key"];
  const bearer = ctx.req.headers.authorization;
  const key =
    typeof apiKey === "string" && apiKey !== ""
      ? apiKey
      : typeof bearer === "string" && /^bearer /i.test(bearer)
        ? bearer.slice(7).trim()
        : "";
  if (key === "" && ctx.options.requireKey) return { status: 401, message: "x-api-key header is required" };
  if (key !== "" && !keyAccepted(ctx.options, key)) {
    return { status: 401, message: "invalid x-api-key" };
  }
  if (typeof ctx.req.headers["anthropic-version"] !== "string") {
    return { status: 400, message: "anthropic-version: header is required" };
  }
  return null;
}
