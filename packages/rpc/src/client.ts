import * as grpc from "@grpc/grpc-js";
import { GatewayError } from "@gw/errors";

/** The callback form every ts-proto grpc-js client method has (its last overload). */
export type UnaryMethod<Request, Response> = (
  request: Request,
  metadata: grpc.Metadata,
  options: Partial<grpc.CallOptions>,
  callback: (error: grpc.ServiceError | null, response: Response) => void,
) => grpc.ClientUnaryCall;

export interface CallOptions {
  timeoutMs?: number;
}

/** Turns a generated client method into `(request) => Promise<response>` with a deadline. */
export function unaryCall<Request, Response>(
  client: grpc.Client,
  method: UnaryMethod<Request, Response>,
  defaults: CallOptions = {},
): (request: Request, options?: CallOptions) => Promise<Response> {
  const bound = method.bind(client);
  return (request, options = {}) =>
    new Promise<Response>((resolve, reject) => {
      const timeoutMs = options.timeoutMs ?? defaults.timeoutMs ?? 5_000;
      bound(request, new grpc.Metadata(), { deadline: Date.now() + timeoutMs }, (error, response) => {
        if (error) reject(error);
        else resolve(response);
      });
    });
}

/** Channel options for long-lived loopback/cluster connections between apps. */
export const CHANNEL_OPTIONS: grpc.ChannelOptions = {
  "grpc.keepalive_time_ms": 30_000,
  "grpc.keepalive_timeout_ms": 5_000,
  "grpc.keepalive_permit_without_calls": 1,
  "grpc.max_receive_message_length": 32 * 1024 * 1024,
  // A restarted app (a crash, a deploy) is reached again within about two seconds. grpc-js's default
  // backoff grows to 120 s, and a channel waiting out its backoff fails every call at once: the edge
  // answered 503 for its whole next round after billing came back in the split-plane kill suite.
  "grpc.initial_reconnect_backoff_ms": 200,
  "grpc.max_reconnect_backoff_ms": 2_000,
  // grpc-js shares subchannels between the channels of one process that name the same address, with
  // their backoff. In the embedded default keys polls generations before it listens, so the edge's
  // first calls to generations inherited that subchannel's backoff (up to 2 s) and failed at once
  // (message batches answered 503 right after a restart). Each channel keeps its own.
  "grpc.use_local_subchannel_pool": 1,
};

export function insecureCredentials(): grpc.ChannelCredentials {
  return grpc.credentials.createInsecure();
}

export function isGrpcError(value: unknown): value is grpc.ServiceError {
  return (
    typeof value === "object" &&
    value !== null &&
    "code" in value &&
    "details" in value &&
    "metadata" in value
  );
}

/**
 * A control-plane dependency that cannot answer is a 503 for the client (fail-closed), never a 500.
 * Errors the server raised on purpose keep their meaning.
 */
export function dependencyError(dependency: string, error: unknown): GatewayError {
  if (isGrpcError(error)) {
    switch (error.code) {
      case grpc.status.NOT_FOUND:
        return new GatewayError("not_found", error.details);
      case grpc.status.INVALID_ARGUMENT:
        return new GatewayError("invalid_request", error.details);
      case grpc.status.PERMISSION_DENIED:
        return new GatewayError("permission", error.details);
      default:
        return new GatewayError("service_unavailable", `${dependency} is unavailable`, {
          code: "dependency_unavailable",
          cause: error,
        });
    }
  }
  return new GatewayError("service_unavailable", `${dependency} is unavailable`, {
    code: "dependency_unavailable",
    cause: error,
  });
}
