import { describe, expect, it } from "vitest";
import { testEndpoint, testModel } from "../test/catalog.js";
import type { MeasuredFigures } from "./measured-health.js";
import { acrossModels, measuredRank, meetsPreferred } from "./measured-order.js";

const a = testModel("x/a", [testEndpoint("slow"), testEndpoint("unmeasured")]);
const b = testModel("x/b", [testEndpoint("fast"), testEndpoint("broken")]);
const attempts = [
  ...a.endpoints.map((endpoint) => ({ model: a, endpoint })),
  ...b.endpoints.map((endpoint) => ({ model: b, endpoint })),
];
const tokens = (p50: number) => ({ p50, p75: p50, p90: p50, p99: p50 });
const measured: Record<string, Partial<MeasuredFigures>> = {
  "x/a slow": { throughput: tokens(10) },
  "x/b fast": { throughput: tokens(90) },
  "x/b broken": { throughput: tokens(500), status: "down" },
};
const health = {
  figures: (model: string, provider: string): MeasuredFigures | undefined => {
    const given = measured[`${model} ${provider}`];
    return (
      given && { attempts: 5, uptime: 1, latencyMs: undefined, throughput: undefined, status: "ok", ...given }
    );
  },
};
const route = (list: typeof attempts) =>
  list.map((attempt) => `${attempt.model.id}@${attempt.endpoint.providerId}`);

describe("sort {by, partition}", () => {
  it("partition none orders every model's endpoints together, measured down last", () => {
    const ordered = acrossModels(attempts, { sort: { by: "throughput", partition: "none" } }, health);
    expect(route(ordered)).toEqual(["x/b@fast", "x/a@slow", "x/a@unmeasured", "x/b@broken"]);
  });

  it("partition model (the default) and the string form keep the per-model order", () => {
    expect(acrossModels(attempts, { sort: { by: "throughput" } }, health)).toEqual(attempts);
    expect(acrossModels(attempts, { sort: "throughput" }, health)).toEqual(attempts);
  });
});

const figuresWith = (given: Partial<MeasuredFigures>): MeasuredFigures => ({
  attempts: 5,
  uptime: 1,
  latencyMs: undefined,
  throughput: undefined,
  status: "ok",
  ...given,
});

describe("meetsPreferred (preferred_min_throughput, preferred_max_latency)", () => {
  const spread = (p50: number, p99: number) => ({ p50, p75: p50, p90: p99, p99 });
  const fast = figuresWith({ throughput: spread(50, 20), latencyMs: spread(400, 2_000) });

  it("a number is a p50 cutoff; the measured figure equal to it meets it", () => {
    expect(meetsPreferred(fast, { preferred_min_throughput: 50 })).toBe(true);
    expect(meetsPreferred(fast, { preferred_min_throughput: 51 })).toBe(false);
    expect(meetsPreferred(fast, { preferred_max_latency: 0.4 })).toBe(true);
    expect(meetsPreferred(fast, { preferred_max_latency: 0.399 })).toBe(false);
  });

  it("an object gives a cutoff per percentile, and any percentile missing it fails", () => {
    expect(meetsPreferred(fast, { preferred_min_throughput: { p50: 40, p99: 20 } })).toBe(true);
    expect(meetsPreferred(fast, { preferred_min_throughput: { p50: 40, p99: 21 } })).toBe(false);
    expect(meetsPreferred(fast, { preferred_min_throughput: { p99: 21 } })).toBe(false);
    expect(meetsPreferred(fast, { preferred_max_latency: { p50: 1, p99: 2 } })).toBe(true);
    expect(meetsPreferred(fast, { preferred_max_latency: { p50: 1, p99: 1.9 } })).toBe(false);
    expect(meetsPreferred(fast, { preferred_max_latency: { p90: 1.9 } })).toBe(false);
  });

  it("a figure not measured yet, or no preference, does not count against the endpoint", () => {
    const none = figuresWith({});
    expect(meetsPreferred(none, { preferred_min_throughput: 1_000, preferred_max_latency: 0.001 })).toBe(
      true,
    );
    expect(meetsPreferred(undefined, { preferred_min_throughput: 1_000 })).toBe(true);
    expect(meetsPreferred(fast, undefined)).toBe(true);
  });
});

describe("measuredRank", () => {
  // Price order: cheap, mid, dear.
  const cheap = testEndpoint("cheap", { prompt: "1", completion: "1" });
  const mid = testEndpoint("mid", { prompt: "2", completion: "2" });
  const dear = testEndpoint("dear", { prompt: "3", completion: "3" });
  const names = (endpoints: readonly { providerId: string }[]) =>
    endpoints.map((endpoint) => endpoint.providerId);
  const ms = (p50: number) => ({ p50, p75: p50, p90: p50, p99: p50 });
  const figures: Record<string, MeasuredFigures> = {
    cheap: figuresWith({ latencyMs: ms(900), throughput: ms(10) }),
    dear: figuresWith({ latencyMs: ms(100), throughput: ms(80) }),
    // Measured, but only its latency: unmeasured for a throughput sort.
    mid: figuresWith({ latencyMs: ms(500) }),
  };
  const by = (endpoint: { providerId: string }) => figures[endpoint.providerId];

  it("price ignores the figures", () => {
    expect(names(measuredRank([dear, mid, cheap], "price", by))).toEqual(["cheap", "mid", "dear"]);
  });

  it("latency puts the lowest time to first token first", () => {
    expect(names(measuredRank([cheap, mid, dear], "latency", by))).toEqual(["dear", "mid", "cheap"]);
  });

  it("throughput puts the highest first; endpoints without that figure follow in price order", () => {
    expect(names(measuredRank([mid, cheap, dear], "throughput", by))).toEqual(["dear", "cheap", "mid"]);
  });

  it("ties keep price order", () => {
    const same = () => figuresWith({ latencyMs: ms(300) });
    expect(names(measuredRank([dear, cheap, mid], "latency", same))).toEqual(["cheap", "mid", "dear"]);
  });
});

describe("acrossModels, measured degraded", () => {
  it("goes last like down", () => {
    const degraded = {
      ...health,
      figures: (model: string, provider: string) => {
        const given = health.figures(model, provider);
        return given && provider === "broken" ? { ...given, status: "degraded" as const } : given;
      },
    };
    const ordered = acrossModels(attempts, { sort: { by: "throughput", partition: "none" } }, degraded);
    expect(route(ordered).at(-1)).toBe("x/b@broken");
  });
});
