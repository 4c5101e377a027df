import {
  type Context,
  context,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
  trace,
} from "@opentelemetry/api";

const TRACER = "model-gateway";

export { type Context, context, type Span, SpanKind };

export function tracer() {
  return trace.getTracer(TRACER);
}

const recordGetter: TextMapGetter<Readonly<Record<string, string | string[] | undefined>>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => carrier[key.toLowerCase()] ?? carrier[key],
};

/** The context a caller's `traceparent`/`tracestate` describe (the active one when there is none). */
export function extractContext(
  carrier: Readonly<Record<string, string | string[] | undefined>>,
  parent: Context = context.active(),
): Context {
  return propagation.extract(parent, carrier, recordGetter);
}

/** Adds `traceparent` (and `tracestate`) of the given context's span to a string map; no-op when off. */
export function injectContext(carrier: Record<string, string>, from: Context = context.active()): void {
  propagation.inject(from, carrier);
}

/** Ends a span, marking it failed when an error is given. */
export function endSpan(span: Span, error?: unknown): void {
  if (error !== undefined) {
    span.setStatus({
      code: SpanStatusCode.ERROR,
      message: error instanceof Error ? error.message : String(error),
    });
    if (error instanceof Error) span.recordException(error);
  }
  span.end();
}

/** Runs fn inside a new span (active for its duration), ending it with fn's outcome. */
export async function inSpan<T>(
  name: string,
  options: { kind: SpanKind; attributes?: Record<string, string | number | boolean> },
  fn: (span: Span) => Promise<T>,
  parent: Context = context.active(),
): Promise<T> {
  const span = tracer().startSpan(name, options, parent);
  try {
    const result = await context.with(trace.setSpan(parent, span), () => fn(span));
    endSpan(span);
    return result;
  } catch (error) {
    endSpan(span, error);
    throw error;
  }
}

/** The context with the given span as its current one. */
export function withSpan(parent: Context, span: Span): Context {
  return trace.setSpan(parent, span);
}

/**
 * The headers with the active span's `traceparent` added, for a message a consumer will continue the
 * trace from; the same object, unallocated, when there is no active span (always so with tracing off).
 */
export function withTraceHeaders(headers: Record<string, string>): Record<string, string> {
  if (!trace.getActiveSpan()?.isRecording()) return headers;
  const traced = { ...headers };
  propagation.inject(context.active(), traced);
  return traced;
}
