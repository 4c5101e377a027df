import * as grpc from "@grpc/grpc-js";
import { recordGrpcClientCall, recordGrpcServerCall, secondsSince } from "@gw/metrics";

/** A status code's name (OK, UNAVAILABLE…): the label value, from grpc-js's fixed table. */
function codeName(code: grpc.status): string {
  return grpc.status[code] ?? "UNKNOWN";
}

/**
 * Times every call a server answers, by method path (the registered handler's, from the proto) and
 * status, refusals by the auth interceptor included: it is installed outside it.
 */
export function serverMetricsInterceptor(): grpc.ServerInterceptor {
  return (method, call) => {
    const startedAt = performance.now();
    return new grpc.ServerInterceptingCall(call, {
      sendStatus: (status, next) => {
        recordGrpcServerCall(method.path, codeName(status.code), secondsSince(startedAt));
        next(status);
      },
    });
  };
}

/** Times every call a client makes until its status arrives, by method path and status. */
export function clientMetricsInterceptor(): grpc.Interceptor {
  return (options, nextCall) => {
    const method = options.method_definition.path;
    const startedAt = performance.now();
    return new grpc.InterceptingCall(nextCall(options), {
      start: (metadata, _listener, next) => {
        // Only the method we intercept: grpc-js fills in the rest (a complete listener object would be
        // taken as a final one and called with the status alone).
        next(metadata, {
          onReceiveStatus: (status, forward) => {
            recordGrpcClientCall(method, codeName(status.code), secondsSince(startedAt));
            forward(status);
          },
        });
      },
    });
  };
}
