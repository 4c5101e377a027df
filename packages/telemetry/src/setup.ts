import { context, propagation, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, type SpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";

export interface Tracing {
  /** Ends export: flushes the spans still queued, then unregisters the global provider. */
  shutdown(): Promise<void>;
}

const OFF: Tracing = { shutdown: async () => {} };

/** Providers installed and not shut down: while none is, every span is @opentelemetry/api's no-op. */
let installed = 0;

/**
 * Whether a tracer provider is installed. Until one is, a span the gateway would start is a no-op one,
 * so the hot path skips starting it at all (the API's global lookups cost ~1% of the edge's CPU).
 */
export function tracingInstalled(): boolean {
  return installed > 0;
}

/**
 * Registers a tracer provider, the W3C trace-context propagator and an AsyncLocalStorage context
 * manager globally. Until this runs, @opentelemetry/api hands out its no-op tracer and propagator, so
 * the spans the gateway starts cost nothing and no `traceparent` is forwarded.
 */
export function installTracing(serviceName: string, processor: SpanProcessor): Tracing {
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ "service.name": serviceName }),
    spanProcessors: [processor],
  });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  installed++;
  let on = true;
  return {
    shutdown: async () => {
      if (on) installed--;
      on = false;
      await provider.shutdown();
      trace.disable();
      propagation.disable();
      context.disable();
    },
  };
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The standard OpenTelemetry variables: tracing is on only with OTEL_TRACES_EXPORTER=otlp (and not
 * OTEL_SDK_DISABLED=true); spans go by OTLP/HTTP (protobuf) to OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as
 * given, or OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces, or the SDK's default http://localhost:4318/v1/traces.
 */
export function startTracingFromEnv(env: Env, defaultServiceName: string): Tracing {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return OFF;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? "").split(",").map((name) => name.trim().toLowerCase());
  if (!exporters.includes("otlp")) return OFF;
  const url = tracesUrl(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, env.OTEL_EXPORTER_OTLP_ENDPOINT);
  const exporter = new OTLPTraceExporter(url ? { url } : {});
  const serviceName = env.OTEL_SERVICE_NAME?.trim() || defaultServiceName;
  return installTracing(serviceName, new BatchSpanProcessor({ exporter }));
}

function tracesUrl(traces: string | undefined, base: string | undefined): string | undefined {
  if (traces?.trim()) return traces.trim();
  if (base?.trim()) return `${base.trim().replace(/\/+$/, "")}/v1/traces`;
  return undefined;
}
