import { GatewayError, isClientErrorKind, kindForHttpStatus } from "@gw/errors";

export type FailureKind = "connect" | "timeout" | "http" | "protocol" | "cancelled";

/** Why an upstream attempt failed, and whether the next attempt in the plan may be tried. */
export interface UpstreamFailure {
  kind: FailureKind;
  /** HTTP status from the upstream, or 0 when none arrived. */
  status: number;
  message: string;
  code: string | undefined;
  retryable: boolean;
  /** The prompt does not fit this model: skip its other endpoints and move to the next model. */
  contextLength: boolean;
  /**
   * The gateway failed to make or read the call (an adapter that threw on the request it was given), not
   * the provider: the next attempt may still serve it, but it never counts against the provider's health,
   * or one tenant's odd request would mark a provider down for every tenant.
   */
  gatewayFault?: true;
  /** What the provider said about the caller's request beyond its message (Azure's content-filter verdicts). */
  detail?: Readonly<Record<string, unknown>>;
}

// Request errors are the caller's to fix and would fail the same way elsewhere (api-decisions: Routing).
const FINAL_STATUSES = new Set([400, 413, 422]);
const CONTEXT_LENGTH = /context[_ ]length|context window|maximum context|too many tokens|prompt is too long/i;

export function httpFailure(status: number, message: string, code: string | undefined): UpstreamFailure {
  const contextLength = status < 500 && (code === "context_length_exceeded" || CONTEXT_LENGTH.test(message));
  return {
    kind: "http",
    status,
    message,
    code,
    retryable: !FINAL_STATUSES.has(status),
    contextLength,
  };
}

export function networkFailure(kind: "connect" | "timeout" | "protocol", message: string): UpstreamFailure {
  return { kind, status: 0, message, code: undefined, retryable: true, contextLength: false };
}

export function cancelledFailure(): UpstreamFailure {
  return {
    kind: "cancelled",
    status: 0,
    message: "client closed the request",
    code: undefined,
    retryable: false,
    contextLength: false,
  };
}

/**
 * The client-facing error once no attempt is left. Request errors keep the upstream's status and
 * message (the caller has something to fix); timeouts are 504; an upstream rate limit stays a 429;
 * anything else is a 502. Provider messages for other failures stay in the logs: they can describe
 * the gateway's own provider credentials.
 */
export function finalError(failure: UpstreamFailure, metadata: Record<string, unknown>): GatewayError {
  if (failure.kind === "timeout") {
    return new GatewayError("gateway_timeout", "the provider did not answer in time", {
      code: "upstream_timeout",
      metadata,
    });
  }
  if (failure.kind === "http" && (FINAL_STATUSES.has(failure.status) || failure.contextLength)) {
    const kind = kindForHttpStatus(failure.status);
    // A code the provider sent is its own, passed through as data; ours says it sent none.
    const code =
      failure.code === undefined
        ? { code: "upstream_rejected_request" as const }
        : { upstreamCode: failure.code };
    return new GatewayError(isClientErrorKind(kind) ? kind : "invalid_request", failure.message, {
      ...code,
      metadata: failure.detail ? { ...metadata, ...failure.detail } : metadata,
    });
  }
  if (failure.kind === "http" && failure.status === 429) {
    return new GatewayError("rate_limit", "the provider is rate limiting requests; retry later", {
      code: "upstream_rate_limited",
      metadata,
      headers: { "Retry-After": "1" },
    });
  }
  const what = failure.kind === "http" ? `answered HTTP ${failure.status}` : describeKind(failure.kind);
  return new GatewayError("upstream", `no provider could serve the request: the last one ${what}`, {
    code: "upstream_error",
    metadata,
  });
}

function describeKind(kind: FailureKind): string {
  if (kind === "connect") return "could not be reached";
  if (kind === "protocol") return "sent an invalid response";
  return "failed";
}
