import { describe, expect, it } from "vitest";
import { testEndpoint, testModel } from "../test/catalog.js";
import type { MeasuredFigures } from "./measured-health.js";
import { acrossModels } from "./measured-order.js";

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
