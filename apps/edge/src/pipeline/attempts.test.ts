import { silentLogger } from "@gw/logger";
import { describe, expect, it } from "vitest";
import { parseChatRequest } from "../canonical/chat-request.js";
import { EndpointHealth } from "../planning/health.js";
import type { PlannedAttempt } from "../planning/plan.js";
import type { Route } from "../planning/planner.js";
import { httpFailure, networkFailure } from "../providers/failure.js";
import type { ChatProvider, ProviderAdapter } from "../providers/types.js";
import { testEndpoint, testModel } from "../test/catalog.js";
import { runAttempts, tryInOrder } from "./attempts.js";

const model = testModel("test/failover", [testEndpoint("openai"), testEndpoint("groq")]);
const attempts: PlannedAttempt[] = model.endpoints.map((endpoint) => ({ model, endpoint }));
const request = parseChatRequest({ model: model.id, messages: [{ role: "user", content: "hi" }] });

function deps() {
  // A circuit that opens at the first provider failure, so one attempt shows in the health.
  const health = new EndpointHealth({ get: () => undefined }, () => 1_000, {
    failureThreshold: 1,
    openMs: 30_000,
  });
  return { health, now: () => 1_000, logger: silentLogger() };
}

function adapter(id: string, chat: ChatProvider): ProviderAdapter {
  return { id, apiFormat: "openai", isDemo: false, chat, unsupported: undefined, close: async () => {} };
}

const served: ChatProvider = {
  complete: async () => ({
    ok: true,
    stream: false,
    status: 200,
    completion: {
      body: { id: "x", choices: [] },
      upstreamId: "x",
      usage: undefined,
      nativeFinishReason: "stop",
    },
  }),
};

describe("the failover loop and provider health", () => {
  it("records the transforms each attempt's request was sent with (middle-out), for the generation", async () => {
    const [first, second] = attempts;
    const planned = [{ ...first, transforms: ["middle-out"] }, second] as PlannedAttempt[];
    const outcome = await tryInOrder(
      planned,
      new AbortController().signal,
      async (attempt) =>
        attempt.endpoint.providerId === "openai"
          ? { ok: false, failure: httpFailure(503, "overloaded", undefined) }
          : { ok: true, status: 200, served: "answer" },
      deps(),
    );
    expect(outcome.records.map((record) => record.transforms)).toEqual([["middle-out"], undefined]);
  });

  it("marks a provider down for its own retryable failure, and moves to the next attempt", async () => {
    const context = deps();
    const outcome = await tryInOrder(
      attempts,
      new AbortController().signal,
      async (attempt) =>
        attempt.endpoint.providerId === "openai"
          ? { ok: false, failure: httpFailure(503, "overloaded", undefined) }
          : { ok: true, status: 200, served: "answer" },
      context,
    );
    expect(outcome.ok && outcome.attempt.endpoint.providerId).toBe("groq");
    expect(context.health.degraded(model.id, "openai")).toBe(true);
    expect(context.health.degraded(model.id, "groq")).toBe(false);
    expect(outcome.records.map((record) => record.fault)).toEqual(["provider", undefined]);
  });

  it("never marks a provider down for a failure on the gateway's side, yet still tries the next attempt", async () => {
    const context = deps();
    const outcome = await tryInOrder(
      attempts,
      new AbortController().signal,
      async (attempt) =>
        attempt.endpoint.providerId === "openai"
          ? { ok: false, failure: { ...networkFailure("protocol", "adapter failed"), gatewayFault: true } }
          : { ok: true, status: 200, served: "answer" },
      context,
    );
    expect(outcome.ok && outcome.attempt.endpoint.providerId).toBe("groq");
    expect(context.health.degraded(model.id, "openai")).toBe(false);
    expect(outcome.records[0]?.fault).toBe("gateway");
  });

  it("never marks a provider down for the caller's own error (a 400 ends the plan)", async () => {
    const context = deps();
    const outcome = await tryInOrder(
      attempts,
      new AbortController().signal,
      async () => ({ ok: false, failure: httpFailure(400, "bad request", "invalid_request_error") }),
      context,
    );
    expect(outcome.ok).toBe(false);
    expect(outcome.records).toHaveLength(1);
    expect(outcome.records[0]?.fault).toBe("caller");
    expect(context.health.degraded(model.id, "openai")).toBe(false);
  });

  it("treats an adapter that throws (deep input it cannot serialise) as the gateway's fault", async () => {
    const context = deps();
    const throwing: ChatProvider = {
      complete: async () => {
        throw new RangeError("Maximum call stack size exceeded");
      },
    };
    const route: Route = {
      attempts,
      adapterFor: (attempt) =>
        attempt.endpoint.providerId === "openai" ? adapter("openai", throwing) : adapter("groq", served),
    };
    const outcome = await runAttempts(
      { route, request, stream: false, signal: new AbortController().signal },
      context,
    );
    expect(outcome.ok && outcome.attempt.endpoint.providerId).toBe("groq");
    expect(context.health.degraded(model.id, "openai")).toBe(false);
  });
});
