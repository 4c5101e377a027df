import {
  context,
  propagation,
  type Span,
  SpanKind,
  type TextMapGetter,
  type TextMapSetter,
  trace,
} from "@opentelemetry/api";
import { endSpan, tracer } from "./spans.js";

/** The part of grpc-js' Metadata the propagator needs (kept structural: no grpc dependency here). */
export interface MetadataLike {
  get(key: string): Array<string | Buffer>;
  set(key: string, value: string): void;
}

const setter: TextMapSetter<MetadataLike> = { set: (carrier, key, value) => carrier.set(key, value) };
const getter: TextMapGetter<MetadataLike> = {
  keys: () => [],
  get: (carrier, key) => {
    const [value] = carrier.get(key);
    return typeof value === "string" ? value : undefined;
  },
};

export interface RpcSpan {
  /** Ends the span; a status code other than 0 (OK) marks it failed. */
  end(code: number, details?: string): void;
}

const rpcAttributes = (path: string) => {
  const [, service = "", method = ""] = path.split("/");
  return { "rpc.system": "grpc", "rpc.service": service, "rpc.method": method };
};

/**
 * Starts a client span for a call to `path` under the active context and writes its `traceparent`
 * into the outgoing metadata. Call it synchronously when the call is made: the active context is the
 * caller's then.
 */
export function startRpcClientSpan(path: string): { inject(metadata: MetadataLike): void } & RpcSpan {
  const parent = context.active();
  const span = tracer().startSpan(
    path.slice(1),
    { kind: SpanKind.CLIENT, attributes: rpcAttributes(path) },
    parent,
  );
  const spanContext = trace.setSpan(parent, span);
  return {
    inject: (metadata) => propagation.inject(spanContext, metadata, setter),
    end: (code, details) => finish(span, code, details),
  };
}

/** Starts a server span for a call to `path`, parented on the `traceparent` of the incoming metadata. */
export function startRpcServerSpan(path: string, metadata: MetadataLike): RpcSpan {
  const parent = propagation.extract(context.active(), metadata, getter);
  const span = tracer().startSpan(
    path.slice(1),
    { kind: SpanKind.SERVER, attributes: rpcAttributes(path) },
    parent,
  );
  return { end: (code, details) => finish(span, code, details) };
}

function finish(span: Span, code: number, details?: string): void {
  span.setAttribute("rpc.grpc.status_code", code);
  endSpan(span, code === 0 ? undefined : new Error(details || `gRPC status ${code}`));
}
