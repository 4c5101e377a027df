import { describe, expect, it } from "vitest";
import type { Endpoint } from "../catalog/snapshot.js";
import { testEndpoint } from "../test/catalog.js";
import { type OrderContext, orderEndpoints, weightedDraw } from "./order.js";

// Endpoint order within one model (api-decisions: Routing), with the weighted draw pinned by `random`.

// Unit prices (prompt + completion) of 3, 6 and 12 USD per million tokens: weights 16:4:1.
const cheap = testEndpoint("cheap", { prompt: "1", completion: "2" });
const mid = testEndpoint("mid", { prompt: "2", completion: "4" });
const dear = testEndpoint("dear", { prompt: "4", completion: "8" });
const free = testEndpoint("free", { prompt: "0", completion: "0" });
const free2 = testEndpoint("free2", { prompt: "0", completion: "0" });

const ids = (endpoints: readonly Endpoint[]) => endpoints.map((endpoint) => endpoint.providerId);

function context(overrides: Partial<OrderContext> = {}): OrderContext {
  return { preferences: undefined, sort: undefined, random: () => 0, healthy: () => true, ...overrides };
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
      context({ random: () => 0.99, healthy: (id) => id !== "cheap" }),
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

  it("sort=price orders by price; throughput and latency keep the catalogue order, healthy first", () => {
    expect(ids(orderEndpoints([dear, cheap, mid], context({ sort: "price" })))).toEqual([
      "cheap",
      "mid",
      "dear",
    ]);
    const healthy = (id: string) => id !== "dear";
    expect(ids(orderEndpoints([dear, cheap, mid], context({ sort: "throughput", healthy })))).toEqual([
      "cheap",
      "mid",
      "dear",
    ]);
    // provider.sort wins over the model variant's sort.
    const latency = context({ sort: "price", preferences: { sort: "latency" }, healthy });
    expect(ids(orderEndpoints([mid, dear, cheap], latency))).toEqual(["mid", "cheap", "dear"]);
  });
});
