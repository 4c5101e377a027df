export { traceBatch, traceMessage } from "./consumer.js";
export { type MetadataLike, type RpcSpan, startRpcClientSpan, startRpcServerSpan } from "./grpc.js";
export { installMemoryTracing } from "./memory.js";
export { installTracing, startTracingFromEnv, type Tracing, tracingInstalled } from "./setup.js";
export {
  type Context,
  context,
  endSpan,
  extractContext,
  injectContext,
  inSpan,
  type Span,
  SpanKind,
  tracer,
  withSpan,
  withTraceHeaders,
} from "./spans.js";
