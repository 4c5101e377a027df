import { describe, expect, it } from "vitest";
import { CircuitBreakers } from "./circuit.js";
import { EndpointHealth } from "./health.js";
import type { MeasuredFigures } from "./measured-health.js";

const options = { failureThreshold: 3, openMs: 10_000 };

describe("CircuitBreakers", () => {
  it("opens after N consecutive failures, not before; a success in between starts the count again", () => {
    const circuits = new CircuitBreakers(options, () => 0);
    circuits.recordFailure("e");
    circuits.recordFailure("e");
    expect(circuits.state("e")).toBe("closed");
    circuits.recordSuccess("e");
    circuits.recordFailure("e");
    circuits.recordFailure("e");
    expect(circuits.admit("e")).toBe(true);
    circuits.recordFailure("e");
    expect(circuits.state("e")).toBe("open");
    expect(circuits.admit("e")).toBe(false);
    expect(circuits.state("other")).toBe("closed");
  });

  it("half-open after openMs lets exactly one probe through; its success closes the circuit", () => {
    let now = 0;
    const circuits = new CircuitBreakers(options, () => now);
    for (let i = 0; i < 3; i++) circuits.recordFailure("e");
    now = 9_999;
    expect(circuits.admit("e")).toBe(false);
    now = 10_000;
    expect(circuits.state("e")).toBe("half-open");
    expect(circuits.admit("e")).toBe(true);
    expect(circuits.admit("e")).toBe(false);
    circuits.recordSuccess("e");
    expect(circuits.state("e")).toBe("closed");
    expect(circuits.admit("e")).toBe(true);
  });

  it("a failed probe opens it again for another openMs", () => {
    let now = 0;
    const circuits = new CircuitBreakers(options, () => now);
    for (let i = 0; i < 3; i++) circuits.recordFailure("e");
    now = 10_000;
    expect(circuits.admit("e")).toBe(true);
    circuits.recordFailure("e");
    expect(circuits.state("e")).toBe("open");
    now = 19_999;
    expect(circuits.admit("e")).toBe(false);
    now = 20_000;
    expect(circuits.admit("e")).toBe(true);
  });

  it("a probe that never reports frees the slot after another openMs", () => {
    let now = 0;
    const circuits = new CircuitBreakers(options, () => now);
    for (let i = 0; i < 3; i++) circuits.recordFailure("e");
    now = 10_000;
    expect(circuits.admit("e")).toBe(true);
    now = 19_999;
    expect(circuits.admit("e")).toBe(false);
    now = 20_000;
    expect(circuits.admit("e")).toBe(true);
  });
});

describe("EndpointHealth", () => {
  const figures = (status: MeasuredFigures["status"]): MeasuredFigures => ({
    attempts: 20,
    uptime: 0.4,
    latencyMs: undefined,
    throughput: undefined,
    status,
  });

  it("an endpoint measured degraded or down on every edge's traffic is degraded here with a closed circuit", () => {
    const measured = new Map([
      ["m\ndown", figures("down")],
      ["m\nslow", figures("degraded")],
      ["m\nfine", figures("ok")],
    ]);
    const health = new EndpointHealth({ get: (model, provider) => measured.get(`${model}\n${provider}`) });
    expect(health.degraded("m", "down")).toBe(true);
    expect(health.degraded("m", "slow")).toBe(true);
    expect(health.degraded("m", "fine")).toBe(false);
    expect(health.degraded("m", "unmeasured")).toBe(false);
    expect(health.degraded("other-model", "down")).toBe(false);
  });

  it("the local circuit is per endpoint: a provider failing for one model is not degraded for another", () => {
    const health = new EndpointHealth({ get: () => undefined }, () => 0, options);
    for (let i = 0; i < 3; i++) health.recordFailure("a/one", "openai");
    expect(health.degraded("a/one", "openai")).toBe(true);
    expect(health.degraded("a/two", "openai")).toBe(false);
  });
});
