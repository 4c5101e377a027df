import type { UsageRecorded } from "@gw/events";
import { usageRecorded } from "@gw/events";
import { exampleUsageFacts } from "@gw/events/testing";
import { describe, expect, it } from "vitest";
import { figuresOf, statusOf } from "./figures.js";
import { bucketOf, LATENCY_MS_BOUNDS, percentiles } from "./histogram.js";
import { samplesOf } from "./samples.js";

function usage(overrides: Parameters<typeof exampleUsageFacts>[0] = {}): UsageRecorded {
  return usageRecorded(exampleUsageFacts(overrides), { byokFeePercent: 0 });
}

describe("status rule", () => {
  it("needs 3 recent attempts; under 50 % served is down, under 90 % degraded", () => {
    expect(statusOf(2, 2)).toBe("ok");
    expect(statusOf(3, 2)).toBe("down");
    expect(statusOf(10, 2)).toBe("degraded");
    expect(statusOf(10, 1)).toBe("ok");
  });
});

describe("histogram percentiles", () => {
  it("reports each percentile as its bucket's upper bound, overflow as the last bound", () => {
    const counts = new Map<number, number>();
    for (const value of [10, 60, 60, 90, 250_000]) {
      const bucket = bucketOf(LATENCY_MS_BOUNDS, value);
      counts.set(bucket, (counts.get(bucket) ?? 0) + 1);
    }
    expect(percentiles(LATENCY_MS_BOUNDS, counts)).toEqual({
      p50: 100,
      p75: 100,
      p90: 120_000,
      p99: 120_000,
    });
    expect(percentiles(LATENCY_MS_BOUNDS, new Map())).toBeUndefined();
  });
});

describe("samples of one usage event", () => {
  it("counts provider faults as failures, skips caller, gateway and cancelled faults", () => {
    const attempt = { model: "m/x", status: 500, latencyMs: 10, isByok: false };
    const samples = samplesOf(
      usage({
        attempts: [
          { ...attempt, provider: "a", fault: "provider" },
          { ...attempt, provider: "a", status: 400, fault: "caller" },
          { ...attempt, provider: "b", status: 0, fault: "gateway" },
          { ...attempt, provider: "c", status: 0, fault: "cancelled" },
          { ...attempt, provider: "a", status: 200 },
        ],
      }),
    );
    expect(samples.map(({ provider, attempts, failures }) => ({ provider, attempts, failures }))).toEqual([
      { provider: "a", attempts: 2, failures: 1 },
    ]);
  });

  it("an event from before Attempt.fault: 2xx served, 400/413/422 the caller's, the rest the provider's", () => {
    const attempt = { model: "m/x", provider: "a", latencyMs: 10, isByok: false, fault: "" };
    const event = usage({
      attempts: [
        { ...attempt, status: 422 },
        { ...attempt, status: 429 },
        { ...attempt, status: 200 },
      ],
    });
    expect(samplesOf(event)[0]).toMatchObject({ attempts: 2, failures: 1 });
  });
});

describe("figures over the window", () => {
  it("uptime over 30 minutes, status over the last 5", () => {
    const now = Date.UTC(2026, 0, 1, 12, 0, 30);
    const minute = (ago: number) => new Date(Date.UTC(2026, 0, 1, 12, 0) - ago * 60_000);
    const figures = figuresOf(
      {
        minutes: [
          { model: "m/x", provider_id: "a", minute: minute(20), attempts: 10, failures: 10 },
          { model: "m/x", provider_id: "a", minute: minute(1), attempts: 10, failures: 0 },
        ],
        histograms: [],
      },
      now,
    );
    expect(figures).toEqual([
      expect.objectContaining({ model: "m/x", providerId: "a", uptime: 0.5, errorRate: 0.5, status: "ok" }),
    ]);
    expect(figures[0]?.latencyMs).toBeUndefined();
  });
});
