import * as grpc from "@grpc/grpc-js";
import { ERROR_KINDS, isGatewayError } from "@gw/errors";

/** The metadata key that carries a GatewayError's Retry-After (seconds) on a failed call. */
export const RETRY_AFTER_METADATA = "retry-after";

/** The Retry-After seconds a failed call carried, if any. */
export function retryAfterOf(error: { metadata?: grpc.Metadata | undefined }): number | undefined {
  const value = Number(error.metadata?.get(RETRY_AFTER_METADATA)[0]);
  return Number.isInteger(value) && value > 0 ? value : undefined;
}

type Logger = { error(obj: object, message: string): void };

/**
 * Adapts an async function to grpc-js's callback handler. A GatewayError keeps its catalogue status;
 * anything else is INTERNAL with a generic message (details go to the log, not the wire).
 */
export function unaryHandler<Request, Response>(
  handler: (request: Request) => Promise<Response>,
  logger?: Logger,
): grpc.handleUnaryCall<Request, Response> {
  return (call, callback) => {
    handler(call.request).then(
      (response) => callback(null, response),
      (error: unknown) => {
        if (isGatewayError(error)) {
          const metadata = new grpc.Metadata();
          // A refusal's wait (a rate limit's Retry-After) crosses the call, so the edge can pass it on.
          const retryAfter = error.headers["Retry-After"];
          if (retryAfter !== undefined) metadata.set(RETRY_AFTER_METADATA, String(retryAfter));
          callback({ code: ERROR_KINDS[error.kind].grpc, details: error.message, metadata });
          return;
        }
        logger?.error({ err: error }, "gRPC handler failed");
        callback({ code: grpc.status.INTERNAL, details: "internal error", metadata: new grpc.Metadata() });
      },
    );
  };
}

/** Binds a server and resolves with the port actually bound (0 picks a free one). */
export function bindGrpcServer(server: grpc.Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.bindAsync(`${host}:${port}`, grpc.ServerCredentials.createInsecure(), (error, boundPort) => {
      if (error) reject(error);
      else resolve(boundPort);
    });
  });
}

/** Graceful shutdown with a bound: in-flight calls get `graceMs`, then the server is forced down. */
export function shutdownGrpcServer(server: grpc.Server, graceMs = 2_000): Promise<void> {
  return new Promise((resolve) => {
    const force = setTimeout(() => {
      server.forceShutdown();
      resolve();
    }, graceMs);
    server.tryShutdown(() => {
      clearTimeout(force);
      resolve();
    });
  });
}
