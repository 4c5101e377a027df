import { silentLogger } from "@gw/logger";
import { registry } from "@gw/metrics";
import { describe, expect, it } from "vitest";
import { EndpointHealth } from "../planning/health.js";
import type { PlannedAttempt } from "../planning/plan.js";
import { httpFailure, networkFailure } from "../providers/failure.js";
import { testEndpoint, testModel } from "../test/catalog.js";
import { tryInOrder } from "./attempts.js";

// The failover loop's series: each attempt timed by provider and catalogue model, failures counted by
// class, a move to the next attempt counted as a failover, a stream's first event as its TTFT.

const model = testModel("test/metrics", [
  testEndpoint("openai"),
  testEndpoint("groq"),
  testEndpoint("mistral"),
]);
const attempts: PlannedAttempt[] = model.endpoints.map((endpoint) => ({ model, endpoint }));

function deps() {
  const health = new EndpointHealth({ get: () => undefined }, () => 1_000, {
    failureThreshold: 5,
    openMs: 1,
  });
  let clock = 1_000;
  // Every reading 250 ms after the last: each attempt lasts a quarter of a second.
  return { health, now: () => (clock += 250), logger: silentLogger() };
}

async function value(name: string, labels: Record<string, string>, suffix = ""): Promise<number> {
  const metric = await registry.getSingleMetric(name)?.get();
  const sample = metric?.values.find(
    (entry) =>
      ((entry as { metricName?: string }).metricName ?? name) === `${name}${suffix}` &&
      Object.entries(labels).every(([key, wanted]) => entry.labels[key] === wanted),
  );
  return sample?.value ?? 0;
}

describe("failover loop metrics", () => {
  it("counts failures by class, failovers by provider pair, and times each attempt", async () => {
    const modelLabel = { model: model.id };
    const before = {
      http5xx: await value("gw_upstream_errors_total", {
        ...modelLabel,
        provider: "openai",
        class: "http_5xx",
      }),
      timeout: await value("gw_upstream_errors_total", { ...modelLabel, provider: "groq", class: "timeout" }),
      first: await value("gw_upstream_failovers_total", { from_provider: "openai", to_provider: "groq" }),
      second: await value("gw_upstream_failovers_total", { from_provider: "groq", to_provider: "mistral" }),
      okSum: await value(
        "gw_upstream_attempt_duration_seconds",
        { ...modelLabel, provider: "mistral", outcome: "ok" },
        "_sum",
      ),
      ttft: await value(
        "gw_upstream_time_to_first_token_seconds",
        { ...modelLabel, provider: "mistral" },
        "_count",
      ),
    };
    const outcome = await tryInOrder(
      attempts,
      new AbortController().signal,
      async (attempt) => {
        if (attempt.endpoint.providerId === "openai")
          return { ok: false, failure: httpFailure(503, "overloaded", undefined) };
        if (attempt.endpoint.providerId === "groq")
          return { ok: false, failure: networkFailure("timeout", "no first byte") };
        return { ok: true, status: 200, served: { stream: true, events: [] } };
      },
      deps(),
    );
    expect(outcome.ok && outcome.attempt.endpoint.providerId).toBe("mistral");
    expect(
      await value("gw_upstream_errors_total", { ...modelLabel, provider: "openai", class: "http_5xx" }),
    ).toBe(before.http5xx + 1);
    expect(
      await value("gw_upstream_errors_total", { ...modelLabel, provider: "groq", class: "timeout" }),
    ).toBe(before.timeout + 1);
    expect(await value("gw_upstream_failovers_total", { from_provider: "openai", to_provider: "groq" })).toBe(
      before.first + 1,
    );
    expect(
      await value("gw_upstream_failovers_total", { from_provider: "groq", to_provider: "mistral" }),
    ).toBe(before.second + 1);
    expect(
      await value(
        "gw_upstream_attempt_duration_seconds",
        { ...modelLabel, provider: "mistral", outcome: "ok" },
        "_sum",
      ),
    ).toBeCloseTo(before.okSum + 0.25);
    expect(
      await value(
        "gw_upstream_time_to_first_token_seconds",
        { ...modelLabel, provider: "mistral" },
        "_count",
      ),
    ).toBe(before.ttft + 1);
  });
});
