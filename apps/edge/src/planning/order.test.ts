import { describe, expect, it } from "vitest";
import type { Endpoint } from "../catalog/snapshot.js";
import { testEndpoint } from "../test/catalog.js";
import type { HealthView } from "./health.js";
import type { MeasuredFigures } from "./measured-health.js";
import { type OrderContext, orderEndpoints, weightedDraw } from "./order.js";

// Endpoint order within one model (api-decisions: Routing), with the weighted draw pinned by `random`.

// Unit prices (prompt + completion) of 3, 6 and 12 USD per million tokens: weights 16:4:1.
const cheap = testEndpoint("cheap", { prompt: "1", completion: "2" });
const mid = testEndpoint("mid", { prompt: "2", completion: "4" });
const dear = testEndpoint("dear", { prompt: "4", completion: "8" });
const free = testEndpoint("free", { prompt: "0", completion: "0" });
const free2 = testEndpoint("free2", { prompt: "0", completion: "0" });

const ids = (endpoints: readonly Endpoint[]) => endpoints.map((endpoint) => endpoint.providerId);

/** Health where the named providers are degraded and the others have the given figures (or none). */
function health(degraded: string[] = [], figures: Record<string, Partial<MeasuredFigures>> = {}): HealthView {
  return {
    degraded: (_model, id) => degraded.includes(id),
    figures: (_model, id) => {
      const given = figures[id];
      if (!given) return undefined;
      return { attempts: 10, uptime: 1, latencyMs: undefined, throughput: undefined, status: "ok", ...given };
    },
  };
}

function context(overrides: Partial<OrderContext> = {}): OrderContext {
  return {
    preferences: undefined,
    sort: undefined,
    random: () => 0,
    modelId: "test/model",
    health: health(),
    ...overrides,
  };
}

describe("weightedDraw", () => {
  it("draws with weight ∝ 1/price²: 16:4:1 for prices 1:2:4", () => {
    const endpoints = [dear, cheap, mid];
    // Weights in the list's order: dear 1, cheap 16, mid 4 (of 21).
    expect(weightedDraw(endpoints, () => 0)?.providerId).toBe("dear");
    expect(weightedDraw(endpoints, () => 0.99 / 21)?.providerId).toBe("dear");
    expect(weightedDraw(endpoints, () => 1.01 / 21)?.providerId).toBe("cheap");
    expect(weightedDraw(endpoints, () => 16.99 / 21)?.providerId).toBe("cheap");
    expect(weightedDraw(endpoints, () => 17.01 / 21)?.providerId).toBe("mid");
    expect(weightedDraw(endpoints, () => 0.999_999)?.providerId).toBe("mid");
  });

  it("draws among the free endpoints when there are any", () => {
    expect(weightedDraw([cheap, free, mid, free2], () => 0)?.providerId).toBe("free");
    expect(weightedDraw([cheap, free, mid, free2], () => 0.5)?.providerId).toBe("free2");
    expect(weightedDraw([cheap, free, mid, free2], () => 0.999_999)?.providerId).toBe("free2");
  });

  it("returns the only endpoint, or none", () => {
    expect(weightedDraw([dear], () => 0.9)).toBe(dear);
    expect(weightedDraw([], () => 0.5)).toBeUndefined();
  });
});

describe("orderEndpoints", () => {
  it("puts the drawn endpoint first and the rest by price, failing providers last", () => {
    const ordered = orderEndpoints([dear, mid, cheap], context({ random: () => 0 }));
    expect(ids(ordered)).toEqual(["dear", "cheap", "mid"]);
    const failingCheap = orderEndpoints(
      [dear, mid, cheap],
      context({ random: () => 0.99, health: health(["cheap"]) }),
    );
    expect(ids(failingCheap)).toEqual(["mid", "dear", "cheap"]);
  });

  it("keeps only the first endpoint when fallbacks are not allowed", () => {
    const preferences = { allow_fallbacks: false };
    expect(ids(orderEndpoints([dear, mid, cheap], context({ preferences, random: () => 0.5 })))).toEqual([
      "cheap",
    ]);
    expect(
      ids(
        orderEndpoints(
          [dear, mid, cheap],
          context({ preferences: { sort: "price", allow_fallbacks: false } }),
        ),
      ),
    ).toEqual(["cheap"]);
  });

  it("provider.order: the named providers first in that order, the rest by price unless fallbacks are off", () => {
    const order = ["dear", "nope", "mid"];
    expect(ids(orderEndpoints([cheap, mid, dear], context({ preferences: { order } })))).toEqual([
      "dear",
      "mid",
      "cheap",
    ]);
    expect(
      ids(orderEndpoints([cheap, mid, dear], context({ preferences: { order, allow_fallbacks: false } }))),
    ).toEqual(["dear", "mid"]);
    expect(
      ids(orderEndpoints([dear, cheap], context({ preferences: { order: [] }, random: () => 0.99 }))),
    ).toEqual(["cheap", "dear"]);
  });

  it("sort=price orders by price, degraded endpoints last", () => {
    expect(ids(orderEndpoints([dear, cheap, mid], context({ sort: "price" })))).toEqual([
      "cheap",
      "mid",
      "dear",
    ]);
    const ordered = orderEndpoints([dear, cheap, mid], context({ sort: "price", health: health(["cheap"]) }));
    expect(ids(ordered)).toEqual(["mid", "dear", "cheap"]);
  });

  it("without figures, throughput and latency sorts keep price order, healthy first", () => {
    const degradedDear = health(["dear"]);
    expect(
      ids(orderEndpoints([dear, cheap, mid], context({ sort: "throughput", health: degradedDear }))),
    ).toEqual(["cheap", "mid", "dear"]);
  });
});

const p = (p50: number, rest: Partial<Record<"p75" | "p90" | "p99", number>> = {}) => ({
  p50,
  p75: rest.p75 ?? p50,
  p90: rest.p90 ?? p50,
  p99: rest.p99 ?? p50,
});

describe("orderEndpoints on measured figures", () => {
  const measured = health([], {
    cheap: { throughput: p(20), latencyMs: p(900) },
    dear: { throughput: p(120), latencyMs: p(300) },
  });

  it(":nitro and sort=throughput: highest measured throughput first, unmeasured after by price", () => {
    expect(
      ids(orderEndpoints([cheap, mid, dear], context({ sort: "throughput", health: measured }))),
    ).toEqual(["dear", "cheap", "mid"]);
  });

  it("sort=latency (and provider.sort over the variant): lowest time to first token first", () => {
    const latency = context({ sort: "throughput", preferences: { sort: "latency" }, health: measured });
    expect(ids(orderEndpoints([cheap, mid, dear], latency))).toEqual(["dear", "cheap", "mid"]);
  });

  it("accepts the object form sort: {by}", () => {
    const byLatency = context({
      preferences: { sort: { by: "latency", partition: "model" } },
      health: measured,
    });
    expect(ids(orderEndpoints([cheap, mid, dear], byLatency))).toEqual(["dear", "cheap", "mid"]);
  });

  it("a degraded endpoint goes last even when it measures fastest", () => {
    const slowDown = health(["dear"], { cheap: { throughput: p(20) }, dear: { throughput: p(120) } });
    expect(
      ids(orderEndpoints([cheap, mid, dear], context({ sort: "throughput", health: slowDown }))),
    ).toEqual(["cheap", "mid", "dear"]);
  });

  it("preferred_min_throughput puts endpoints below it after the others (unmeasured ones are not below)", () => {
    // The draw (random 0) would pick cheap first; cheap misses the preference, so mid and dear come first.
    const preferences = { preferred_min_throughput: 50 };
    expect(ids(orderEndpoints([cheap, mid, dear], context({ preferences, health: measured })))).toEqual([
      "mid",
      "dear",
      "cheap",
    ]);
  });

  it("preferred_max_latency is in seconds and takes percentile cutoffs", () => {
    const tail = health([], { cheap: { latencyMs: p(200, { p90: 4_000 }) }, mid: { latencyMs: p(500) } });
    const number = context({ preferences: { preferred_max_latency: 0.3 }, health: tail });
    expect(ids(orderEndpoints([cheap, mid, dear], number))).toEqual(["cheap", "dear", "mid"]);
    const p90 = context({ preferences: { preferred_max_latency: { p90: 1 } }, health: tail });
    expect(ids(orderEndpoints([cheap, mid, dear], p90))).toEqual(["mid", "dear", "cheap"]);
  });
});
