import { describe, expect, it } from "vitest";
import { startTracingFromEnv } from "./setup.js";
import { injectContext, tracer } from "./spans.js";

/** Whether a span started now records, and whether a traceparent would be written for it. */
function probe(): { recording: boolean; traceparent: string | undefined } {
  const span = tracer().startSpan("probe");
  const carrier: Record<string, string> = {};
  injectContext(carrier);
  span.end();
  return { recording: span.isRecording(), traceparent: carrier.traceparent };
}

describe("startTracingFromEnv", () => {
  it("is off by default: the no-op tracer, nothing propagated", async () => {
    const tracing = startTracingFromEnv({}, "test");
    expect(probe().recording).toBe(false);
    await tracing.shutdown();
  });

  it("stays off with OTEL_SDK_DISABLED=true even when the OTLP exporter is asked for", async () => {
    const tracing = startTracingFromEnv({ OTEL_TRACES_EXPORTER: "otlp", OTEL_SDK_DISABLED: "true" }, "test");
    expect(probe().recording).toBe(false);
    await tracing.shutdown();
  });

  it("is on with OTEL_TRACES_EXPORTER=otlp, and off again after shutdown", async () => {
    // A closed port: nothing is exported (no span ends before shutdown's flush, which then fails quietly).
    const tracing = startTracingFromEnv(
      { OTEL_TRACES_EXPORTER: "otlp", OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9" },
      "test",
    );
    const span = tracer().startSpan("on");
    expect(span.isRecording()).toBe(true);
    await tracing.shutdown();
    expect(probe().recording).toBe(false);
  });
});
