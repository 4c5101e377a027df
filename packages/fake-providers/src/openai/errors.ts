import { sendJson } from "../core/http.js";
import { type ExchangeContext, keyAccepted, type ProviderError } from "../core/server.js";

// Error bodies and headers as the OpenAI API sends them: `{error: {message, type, param, code}}` with the
// request id in `x-request-id` (set by the server core) and `retry-after` on 429.

export function sendOpenAiError(ctx: ExchangeContext, error: ProviderError): void {
  const headers: Record<string, string> = {};
  if (error.retryAfter !== undefined) {
    headers["retry-after"] = String(error.retryAfter);
    headers["x-ratelimit-remaining-requests"] = "0";
    headers["x-ratelimit-reset-requests"] = `${error.retryAfter}s`;
  }
  sendJson(
    ctx.res,
    error.status,
    {
      error: {
        message: error.message ?? defaultMessage(error.status),
        type: errorType(error.status),
        param: error.param ?? null,
        code: error.code ?? defaultCode(error.status),
      },
    },
    headers,
  );
}

function errorType(status: number): string {
  if (status === 429) return "requests";
  if (status >= 500) return "server_error";
  return "invalid_request_error";
}

function defaultCode(status: number): string | null {
  if (status === 429) return "rate_limit_exceeded";
  return null;
}

function defaultMessage(status: number): string {
  switch (status) {
    case 400:
      return "Bad request.";
    case 401:
      return "Incorrect API key provided.";
    case 403:
      return "You are not allowed to sample from this model.";
    case 404:
      return "Not found.";
    case 429:
      return "Rate limit reached for requests. Please try again in 1s.";
    case 503:
      return "The server is overloaded or not ready yet.";
    default:
      return status >= 500
        ? "The server had an error while processing your request. Sorry about that!"
        : `Request failed with status ${status}.`;
  }
}

export function authenticateOpenAi(ctx: ExchangeContext): ProviderError | null {
  const header = ctx.req.headers.authorization;
  const key = typeof header === "string" && /^bearer /i.test(header) ? header.slice(7).trim() : "";
  if (key === "") {
    if (!ctx.options.requireKey) return null;
    return {
      status: 401,
      message:
        "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
    };
  }
  if (!keyAccepted(ctx.options, key)) {
    return { status: 401, message: `Incorrect API key provided: ${maskKey(key)}.`, code: "invalid_api_key" };
  }
  return null;
}

export function maskKey(key: string): string {
  return key.length <= 8 ? "****" : `${key.slice(0, 3)}****${key.slice(-4)}`;
}

export function modelNotFound(model: string): ProviderError {
  return {
    status: 404,
    message: `The model \`${model}\` does not exist or you do not have access to it.`,
    code: "model_not_found",
  };
}
