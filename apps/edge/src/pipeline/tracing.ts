import {
  context,
  endSpan,
  extractContext,
  SpanKind,
  tracer,
  tracingInstalled,
  withSpan,
} from "@gw/telemetry";
import type { RequestHandler } from "express";

/**
 * A server span per request of the route, parented on the caller's `traceparent`; the route's
 * handlers run inside it (so the gRPC admission, the provider attempts and the usage event join the
 * trace), and it ends when the response is finished or cut.
 */
export function serverSpan(method: string, path: string | string[]): RequestHandler {
  const name = `${method.toUpperCase()} ${Array.isArray(path) ? path[0] : path}`;
  return (request, response, next) => {
    // No provider: the span would be the API's no-op one (not recording), so none is started.
    if (!tracingInstalled()) return next();
    const parent = extractContext(request.headers);
    const span = tracer().startSpan(
      name,
      {
        kind: SpanKind.SERVER,
        attributes: {
          "http.request.method": request.method,
          "http.route": name.slice(name.indexOf(" ") + 1),
        },
      },
      parent,
    );
    if (!span.isRecording()) return next();
    response.once("close", () => {
      span.setAttribute("http.response.status_code", response.statusCode);
      endSpan(span, response.statusCode >= 500 ? new Error(`HTTP ${response.statusCode}`) : undefined);
    });
    context.with(withSpan(parent, span), next);
  };
}

/** Runs one upstream attempt inside a client span (the call until its response, or a stream's first event). */
export async function inAttemptSpan<T extends { ok: boolean }>(
  attempt: { endpoint: { providerId: string }; model: { id: string } },
  invoke: () => Promise<T>,
): Promise<T> {
  if (!tracingInstalled()) return invoke();
  const span = tracer().startSpan(`provider ${attempt.endpoint.providerId}`, {
    kind: SpanKind.CLIENT,
    attributes: {
      "gen_ai.provider.name": attempt.endpoint.providerId,
      "gen_ai.request.model": attempt.model.id,
    },
  });
  try {
    const result = await context.with(withSpan(context.active(), span), invoke);
    endSpan(span, result.ok ? undefined : new Error("provider attempt failed"));
    return result;
  } catch (error) {
    endSpan(span, error);
    throw error;
  }
}
