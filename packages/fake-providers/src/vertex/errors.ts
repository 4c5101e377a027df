import { sendJson } from "../core/http.js";
import type { ExchangeContext, ProviderError } from "../core/server.js";
import { GEMINI_JSON, grpcStatus } from "../gemini/errors.js";
import type { IssuedToken } from "./token-endpoint.js";

// Vertex AI's errors are Google's gRPC-style JSON (cloud.google.com/apis/design/errors):
// `{error: {code, message, status, details: [{@type: ErrorInfo, reason, domain, metadata}]}}`.

const AUTH_HINT =
  "Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.";

export function sendVertexError(ctx: ExchangeContext, error: ProviderError): void {
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
        ...(error.code
          ? {
              details: [
                {
                  "@type": "type.googleapis.com/google.rpc.ErrorInfo",
                  reason: error.code,
                  domain: "googleapis.com",
                  metadata: {
                    service: "aiplatform.googleapis.com",
                    method: "google.cloud.aiplatform.v1.PredictionService",
                  },
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

function defaultMessage(status: number): string {
  if (status === 429)
    return "Resource exhausted. Please try again later. Please refer to https://cloud.google.com/vertex-ai/generative-ai/docs/error-code-429 for more details.";
  if (status === 503) return "The service is currently unavailable.";
  return `Request failed with status ${status}.`;
}

/**
 * `Authorization: Bearer <token>` must be a token the fake's token endpoint issued and that has not expired
 * (or one of the static tokens it was given). Google answers 401 UNAUTHENTICATED for each: without a
 * credential "Request is missing required authentication credential", with a bad or expired one "Request
 * had invalid authentication credentials" (reason ACCESS_TOKEN_EXPIRED / ACCESS_TOKEN_TYPE_UNSUPPORTED).
 */
export function authenticateVertex(
  ctx: ExchangeContext,
  tokens: ReadonlyMap<string, IssuedToken>,
  staticTokens: readonly string[],
): ProviderError | null {
  const header = ctx.req.headers.authorization ?? "";
  const match = /^Bearer (\S+)$/.exec(header);
  if (!match?.[1]) {
    return {
      status: 401,
      message: `Request is missing required authentication credential. ${AUTH_HINT}`,
      code: "CREDENTIALS_MISSING",
    };
  }
  const token = match[1];
  if (staticTokens.includes(token)) return null;
  const issued = tokens.get(token);
  if (!issued) {
    return {
      status: 401,
      message: `Request had invalid authentication credentials. ${AUTH_HINT}`,
      code: "ACCESS_TOKEN_TYPE_UNSUPPORTED",
    };
  }
  if (issued.expiresAtMs <= Date.now()) {
    return {
      status: 401,
      message: `Request had invalid authentication credentials. ${AUTH_HINT}`,
      code: "ACCESS_TOKEN_EXPIRED",
    };
  }
  return null;
}
