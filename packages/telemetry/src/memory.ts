import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from "@opentelemetry/sdk-trace";
import { installTracing, type Tracing } from "./setup.js";

/** Tracing into memory (for tests): every span is kept as it ends. */
export function installMemoryTracing(serviceName: string): Tracing & { spans(): ReadableSpan[] } {
  const exporter = new InMemorySpanExporter();
  const tracing = installTracing(serviceName, new SimpleSpanProcessor({ exporter }));
  return { shutdown: tracing.shutdown, spans: () => exporter.getFinishedSpans() };
}
