import { status as GrpcStatus } from "@grpc/grpc-js";

/**
 * The one error-code catalogue: every error the gateway produces has a kind, and the kind decides the
 * HTTP status, the OpenAI-style `error.type`, the gRPC status and the Anthropic/Gemini renderings.
 * `errorType` is OpenRouter's error-type name (its `ApiErrorType`), sent in a failed stream's chunk.
 */
export const ERROR_KINDS = {
  invalid_request: {
    status: 400,
    type: "invalid_request_error",
    grpc: GrpcStatus.INVALID_ARGUMENT,
    anthropic: "invalid_request_error",
    gemini: "INVALID_ARGUMENT",
    errorType: "invalid_request",
  },
  authentication: {
    status: 401,
    type: "authentication_error",
    grpc: GrpcStatus.UNAUTHENTICATED,
    anthropic: "authentication_error",
    gemini: "UNAUTHENTICATED",
    errorType: "authentication",
  },
  payment_required: {
    status: 402,
    type: "payment_required",
    grpc: GrpcStatus.FAILED_PRECONDITION,
    anthropic: "billing_error",
    gemini: "FAILED_PRECONDITION",
    errorType: "payment_required",
  },
  permission: {
    status: 403,
    type: "permission_error",
    grpc: GrpcStatus.PERMISSION_DENIED,
    anthropic: "permission_error",
    gemini: "PERMISSION_DENIED",
    errorType: "permission_denied",
  },
  not_found: {
    status: 404,
    type: "not_found_error",
    grpc: GrpcStatus.NOT_FOUND,
    anthropic: "not_found_error",
    gemini: "NOT_FOUND",
    errorType: "not_found",
  },
  request_timeout: {
    status: 408,
    type: "timeout_error",
    grpc: GrpcStatus.DEADLINE_EXCEEDED,
    anthropic: "timeout_error",
    gemini: "DEADLINE_EXCEEDED",
    errorType: "timeout",
  },
  request_too_large: {
    status: 413,
    type: "request_too_large",
    grpc: GrpcStatus.INVALID_ARGUMENT,
    anthropic: "request_too_large",
    gemini: "INVALID_ARGUMENT",
    errorType: "payload_too_large",
  },
  rate_limit: {
    status: 429,
    type: "rate_limit_error",
    grpc: GrpcStatus.RESOURCE_EXHAUSTED,
    anthropic: "rate_limit_error",
    gemini: "RESOURCE_EXHAUSTED",
    errorType: "rate_limit_exceeded",
  },
  internal: {
    status: 500,
    type: "api_error",
    grpc: GrpcStatus.INTERNAL,
    anthropic: "api_error",
    gemini: "INTERNAL",
    errorType: "server",
  },
  upstream: {
    status: 502,
    type: "upstream_error",
    grpc: GrpcStatus.UNAVAILABLE,
    anthropic: "api_error",
    gemini: "UNAVAILABLE",
    errorType: "server",
  },
  service_unavailable: {
    status: 503,
    type: "service_unavailable",
    grpc: GrpcStatus.UNAVAILABLE,
    anthropic: "overloaded_error",
    gemini: "UNAVAILABLE",
    errorType: "provider_unavailable",
  },
  gateway_timeout: {
    status: 504,
    type: "timeout_error",
    grpc: GrpcStatus.DEADLINE_EXCEEDED,
    anthropic: "timeout_error",
    gemini: "DEADLINE_EXCEEDED",
    errorType: "timeout",
  },
} as const;

export type ErrorKind = keyof typeof ERROR_KINDS;

/** The spec's exact 401 messages. */
export const MISSING_AUTH_MESSAGE = "missing or invalid Authorization header";
export const INVALID_KEY_MESSAGE = "invalid api key";

export function kindForHttpStatus(status: number): ErrorKind {
  const exact = (Object.keys(ERROR_KINDS) as ErrorKind[]).find((kind) => ERROR_KINDS[kind].status === status);
  if (exact) return exact;
  if (status >= 500) return "upstream";
  return "invalid_request";
}
