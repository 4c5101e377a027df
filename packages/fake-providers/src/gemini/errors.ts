import { sendJson } from "../core/http.js";
import { type ExchangeContext, keyAccepted, type ProviderError } from "../core/server.js";

// Error bodies as the Gemini API sends them: a gRPC-style status `{error: {code, message, status, details?}}`,
// always `application/json` (the SDK only parses error JSON when the content type says so).

export const GEMINI_JSON = "application/json; charset=UTF-8";

export function sendGeminiError(ctx: ExchangeContext, error: ProviderError): void {
  const headers: Record<string, string> = {};
  if (error.retryAfter !== undefined) headers["retry-after"] = String(error.retryAfter);
  sendJson(
    ctx.res,
    error.status,
    {
      error: {
        code: error.status,
        message: error.message ?? defaultMessage(error.status),
        status: grpcStatus(error.status),
        ...(error.details ? { details: error.details } : {}),
        ...(error.code
          ? {
              details: [
                {
                  "@type": "type.googleapis.com/google.rpc.ErrorInfo",
                  reason: error.code,
                  domain: "googleapis.com",
                  metadata: { service: "generativelanguage.googleapis.com" },
                },
              ],
            }
          : {}),
      },
    },
    headers,
    GEMINI_JSON,
  );
}

export function grpcStatus(status: number): string {
  switch (status) {
    case 400:
      return "INVALID_ARGUMENT";
    case 401:
      return "UNAUTHENTICATED";
    case 403:
      return "PERMISSION_DENIED";
    case 404:
      return "NOT_FOUND";
    case 409:
      return "ABORTED";
    case 429:
      return "RESOURCE_EXHAUSTED";
    case 499:
      return "CANCELLED";
    case 501:
      return "NOT_IMPLEMENTED";
    case 503:
      return "UNAVAILABLE";
    case 504:
      return "DEADLINE_EXCEEDED";
    default:
      return status >= 500 ? "INTERNAL" : "FAILED_PRECONDITION";
  }
}

function defaultMessage(status: number): string {
  switch (status) {
    case 429:
      return "Resource has been exhausted (e.g. check quota).";
    case 503:
      return "The model is overloaded. Please try again later.";
    case 500:
      return "An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting";
    default:
      return `Request failed with status ${status}.`;
  }
}

/**
 * The key comes in `x-goog-api-key` or `?key=`. As the real API does, a missing key is 403 PERMISSION_DENIED and
 * a wrong one 400 INVALID_ARGUMENT with reason API_KEY_INVALID (Gemini does not answer 401 for API keys).
 */
export function authenticateGemini(ctx: ExchangeContext): ProviderError | null {
  const header = ctx.req.headers["x-goog-api-key"];
  const key = typeof header === "string" && header !== "" ? header : (ctx.url.searchParams.get("key") ?? "");
  if (key === "") {
    if (!ctx.options.requireKey) return null;
    return {
      status: 403,
      message:
        "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
    };
  }
  if (!keyAccepted(ctx.options, key)) {
    return {
      status: 400,
      message: "API key not valid. Please pass a valid API key.",
      code: "API_KEY_INVALID",
    };
  }
  return null;
}
