import * as grpc from "@grpc/grpc-js";
import { startRpcClientSpan, startRpcServerSpan } from "@gw/telemetry";

/**
 * A client span per call, its `traceparent` written into the call's metadata so the server's span
 * joins the caller's trace. With tracing off the span is the API's no-op one and nothing is written.
 */
export function clientTracingInterceptor(): grpc.Interceptor {
  return (options, nextCall) => {
    // Here, not in start: this runs synchronously in the caller, whose context is the active one.
    const span = startRpcClientSpan(options.method_definition.path);
    return new grpc.InterceptingCall(nextCall(options), {
      start: (metadata, _listener, next) => {
        span.inject(metadata);
        // Only the method we intercept (a complete listener would be taken as a final one).
        next(metadata, {
          onReceiveStatus: (status, forward) => {
            span.end(status.code, status.details);
            forward(status);
          },
        });
      },
    });
  };
}

/** A server span per call, parented on the caller's `traceparent` metadata, ended with the status sent. */
export function serverTracingInterceptor(): grpc.ServerInterceptor {
  return (method, call) => {
    let span: ReturnType<typeof startRpcServerSpan> | undefined;
    return new grpc.ServerInterceptingCall(call, {
      start: (next) => {
        next({
          onReceiveMetadata: (metadata, forward) => {
            span = startRpcServerSpan(method.path, metadata);
            forward(metadata);
          },
        });
      },
      sendStatus: (status, next) => {
        span?.end(status.code, status.details);
        span = undefined;
        next(status);
      },
    });
  };
}
