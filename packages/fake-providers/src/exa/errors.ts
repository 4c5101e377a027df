import { sendJson } from "../core/http.js";
import { type ExchangeContext, keyAccepted, type ProviderError } from "../core/server.js";

// Exa's refusals (exa.ai/docs/reference/error-codes): an HTTP status with a JSON body carrying the
// request's `requestId`, a message in `error` and a machine tag in `tag` (INVALID_REQUEST_BODY for a
// malformed body, INVALID_API_KEY for a missing or wrong key, NO_MORE_CREDITS on 402, RATE_LIMIT on 429).

export function sendExaError(ctx: ExchangeContext, error: ProviderError): void {
  const headers: Record<string, string> = {};
  if (error.retryAfter !== undefined) headers["retry-after"] = String(error.retryAfter);
  sendJson(
    ctx.res,
    error.status,
    {
      requestId: ctx.requestId,
      error: error.message ?? defaultMessage(error.status),
      tag: error.code ?? defaultTag(error.status),
    },
    headers,
  );
}

function defaultTag(status: number): string {
  if (status === 400) return "INVALID_REQUEST_BODY";
  if (status === 401) return "INVALID_API_KEY";
  if (status === 402) return "NO_MORE_CREDITS";
  if (status === 429) return "RATE_LIMIT";
  return "INTERNAL_ERROR";
}

function defaultMessage(status: number): string {
  if (status === 429) return "You've exceeded your Exa rate limit. Please try again later.";
  if (status === 402) return "You have no more credits. Please top up your account.";
  return "Internal server error";
}

/**
 * Exa takes its key in `x-api-key` or as `Authorization: Bearer` (exa.ai/docs/reference/search,
 * "Authorizations"); a missing or wrong one is 401 INVALID_API_KEY.
 */
export function authenticateExa(ctx: ExchangeContext): ProviderError | null {
  const header = ctx.req.headers["x-api-key"];
  const bearer = /^Bearer (\S+)$/.exec(ctx.req.headers.authorization ?? "")?.[1];
  const key = typeof header === "string" && header !== "" ? header : bearer;
  if (key === undefined) {
    if (!ctx.options.requireKey) return null;
    return { status: 401, code: "INVALID_API_KEY", message: "API key must be provided" };
  }
  if (!keyAccepted(ctx.options, key))
    return { status: 401, code: "INVALID_API_KEY", message: "Invalid API key" };
  return null;
}
