import { encodeKeyChange } from "@gw/events";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type EdgeHarness, startEdgeHarness } from "../test/harness.js";
import { readError } from "../test/http.js";
import { testKey } from "../test/principals.js";

const alice = testKey("acct-alice", { allowedModels: { values: ["demo/echo", "test/failover"] } });
const bob = testKey("acct-bob", { allowedProviders: { values: ["groq"] } });
const carol = testKey("acct-carol");
let edge: EdgeHarness;

beforeAll(async () => {
  edge = await startEdgeHarness({ keys: [alice, bob, carol] });
});

afterAll(async () => {
  await edge?.stop();
});

beforeEach(() => {
  edge.primary.clearRequests();
  edge.backup.clearRequests();
});

function chat(secret: string, body: Record<string, unknown>): Promise<Response> {
  return fetch(`${edge.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
    body: JSON.stringify({ messages: [{ role: "user", content: "hi" }], ...body }),
  });
}

describe("chat completions stay inside the key's scope", () => {
  it("refuses a model outside the key's allow-list with 403, before admission", async () => {
    const admits = edge.billing.admits.length;
    const error = await readError(await chat(alice.secret, { model: "openai/gpt-4o-mini" }));
    expect([error.status, error.type, error.reason]).toEqual([403, "permission_error", "model_not_allowed"]);
    expect(edge.billing.admits.length).toBe(admits);
    expect(edge.primary.requests()).toHaveLength(0);
  });

  it("never falls back to a model the key may not use", async () => {
    // Both providers of the allowed model fail, so the router moves on to the fallback list; the one
    // fallback is outside alice's allow-list, and the same fake (openai) would serve it.
    const failing = { name: "fail" as const, status: 503 };
    edge.primary.setScenario(failing);
    edge.backup.setScenario(failing);
    try {
      const response = await chat(alice.secret, { model: "test/failover", models: ["openai/gpt-4o-mini"] });
      expect(response.status).toBeGreaterThanOrEqual(500);
    } finally {
      edge.primary.resetScenario();
      edge.backup.resetScenario();
    }
    const upstreamModels = [...edge.primary.requests(), ...edge.backup.requests()].map(
      (request) => (request.body as { model?: string }).model,
    );
    // Every allowed attempt was made, and none at the disallowed fallback.
    expect(upstreamModels.sort()).toEqual(["gpt-4o", "llama-3.3-70b"]);
  });

  it("only calls the providers the key allows", async () => {
    const response = await chat(bob.secret, { model: "test/failover" });
    expect(response.status).toBe(200);
    expect(edge.primary.requests()).toHaveLength(0);
    expect(edge.backup.requests()).toHaveLength(1);
    const error = await readError(await chat(bob.secret, { model: "openai/gpt-4o-mini" }));
    expect([error.status, error.reason]).toEqual([403, "provider_not_allowed"]);
  });

  it("attributes holds, settlements and usage to the caller's account and key only", async () => {
    const response = await chat(carol.secret, { model: "demo/echo" });
    const id = response.headers.get("x-generation-id")!;
    await expect.poll(() => edge.usageEvents().find((event) => event.generationId === id)).toBeDefined();
    const event = edge.usageEvents().find((candidate) => candidate.generationId === id);
    expect([event?.accountId, event?.keyHash]).toEqual(["acct-carol", carol.principal.keyHash]);
    expect(edge.billing.admits.find((admit) => admit.holdId === id)).toMatchObject({
      accountId: "acct-carol",
      keyHash: carol.principal.keyHash,
    });
    await expect
      .poll(() => edge.billing.settles.find((settle) => settle.holdId === id)?.accountId)
      .toBe("acct-carol");
  });

  it("stops a disabled key as soon as the key-change event arrives, despite the cache", async () => {
    const victim = testKey("acct-dave");
    const local = await startEdgeHarness({ keys: [victim] });
    try {
      const send = () =>
        fetch(`${local.url}/v1/chat/completions`, {
          method: "POST",
          headers: { authorization: `Bearer ${victim.secret}`, "content-type": "application/json" },
          body: JSON.stringify({ model: "demo/echo", messages: [{ role: "user", content: "hi" }] }),
        });
      expect((await send()).status).toBe(200);
      victim.principal.disabled = true;
      expect((await send()).status).toBe(200);
      const event = encodeKeyChange({
        keyHash: victim.principal.keyHash,
        accountId: "acct-dave",
        change: "disabled",
      });
      local.bus.publish("gateway.key-changes.v1", event.key, event.value, event.headers);
      await expect.poll(async () => (await send()).status).toBe(401);
      const error = await readError(await send());
      expect([error.message, error.reason]).toEqual(["invalid api key", "key_disabled"]);
    } finally {
      await local.stop();
    }
  });
});
