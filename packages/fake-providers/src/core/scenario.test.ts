import { describe, expect, it } from "vitest";
import {
  NO_STEERING,
  parseScenarioHeader,
  parseServerScenarios,
  ScenarioError,
  ScenarioStore,
  steeringFor,
} from "./scenario.js";

describe("scenario header", () => {
  it("parses names and parameters, several per header", () => {
    expect(parseScenarioHeader("slow;ms=300, no-usage")).toEqual([
      { name: "slow", ms: 300 },
      { name: "no-usage" },
    ]);
    expect(parseScenarioHeader("fail;status=503;message=down")).toEqual([
      { name: "fail", status: 503, message: "down" },
    ]);
    expect(parseScenarioHeader("rate-limit;retry_after=7")).toEqual([{ name: "rate-limit", retryAfter: 7 }]);
  });

  it("rejects unknown names and bad values loudly", () => {
    expect(() => parseScenarioHeader("explode")).toThrow(ScenarioError);
    expect(() => parseScenarioHeader("slow;ms=soon")).toThrow(/ms must be/);
    expect(() => parseScenarioHeader("fail;status=200")).toThrow(/400-599/);
    expect(() => parseScenarioHeader("slow;ms")).toThrow(/without value/);
  });
});

describe("steeringFor", () => {
  it("combines scenarios with their defaults", () => {
    expect(steeringFor([])).toEqual(NO_STEERING);
    expect(
      steeringFor([{ name: "slow" }, { name: "slow-stream", ms: 5 }, { name: "no-usage" }]),
    ).toMatchObject({
      delayMs: 1000,
      chunkDelayMs: 5,
      noUsage: true,
    });
    expect(steeringFor([{ name: "fail" }]).failure).toEqual({ status: 500 });
    expect(steeringFor([{ name: "rate-limit" }]).failure).toEqual({ status: 429, retryAfter: 1 });
    expect(steeringFor([{ name: "drop-mid-stream" }]).dropAfter).toBe(-1);
    expect(steeringFor([{ name: "drop-mid-stream", after: 2 }]).dropAfter).toBe(2);
    expect(steeringFor([{ name: "hang" }]).hang).toBe(true);
  });
});

describe("ScenarioStore", () => {
  it("applies a scenario the given number of times, to matching paths only", () => {
    const store = new ScenarioStore();
    store.set(parseServerScenarios({ name: "fail", status: 503, times: 2, path: "/v1/chat" }));
    expect(store.take("/v1/embeddings")).toEqual([]);
    expect(store.take("/v1/chat/completions")).toHaveLength(1);
    expect(store.list()).toEqual([{ name: "fail", status: 503, times: 1, path: "/v1/chat" }]);
    expect(store.take("/v1/chat/completions")).toHaveLength(1);
    expect(store.take("/v1/chat/completions")).toEqual([]);
  });

  it("keeps an unlimited scenario until reset", () => {
    const store = new ScenarioStore();
    store.set(parseServerScenarios([{ name: "no-usage" }, { name: "slow", ms: 1 }]));
    for (let i = 0; i < 3; i++) expect(store.take("/x")).toHaveLength(2);
    store.reset();
    expect(store.take("/x")).toEqual([]);
  });

  it("rejects malformed control JSON", () => {
    expect(() => parseServerScenarios("fail")).toThrow(ScenarioError);
    expect(() => parseServerScenarios({ name: "fail", times: -1 })).toThrow(/times/);
    expect(() => parseServerScenarios({ name: "fail", path: 3 })).toThrow(/path/);
  });
});
