import { encodeKeyChange } from "@gw/events";
import { type FakeServer, startFakeOpenAi } from "@gw/fake-providers";
import { usdToPico } from "@gw/money";
import type { ProviderCredential } from "@gw/proto/keys/v1/keys";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BYOK_FAKE_KEY, type EdgeHarness, FAKE_KEY, startEdgeHarness } from "../test/harness.js";
import { readError } from "../test/http.js";
import { testKey } from "../test/principals.js";

// BYOK on the hot path: the account's own provider key serves the call (its endpoints first), the
// response and the usage event say is_byok, and allow-lists still apply.

const USER_KEY = "sk-user-own-mistral-key-0001";
const owner = testKey("acct-byok");
const narrow = testKey("acct-byok", { allowedProviders: { values: ["openai"] } });
const plain = testKey("acct-plain");
const credentials = new Map<string, ProviderCredential[]>();
let edge: EdgeHarness;
let mistral: FakeServer;

beforeAll(async () => {
  mistral = await startFakeOpenAi({ apiKey: USER_KEY });
  edge = await startEdgeHarness({
    keys: [owner, narrow, plain],
    credentials,
    env: { MISTRAL_BASE_URL: mistral.baseUrl },
  });
});

afterAll(async () => {
  await edge?.stop();
  await mistral?.close();
});

beforeEach(async () => {
  await changeCredentials("acct-byok", [
    { id: "byok_m", providerId: "mistral", apiKey: USER_KEY, position: 0 },
    { id: "byok_g", providerId: "groq", apiKey: BYOK_FAKE_KEY, position: 1 },
  ]);
  for (const server of [edge.primary, edge.backup, mistral]) server.clearRequests();
});

function chat(secret: string, body: Record<string, unknown>): Promise<Response> {
  return fetch(`${edge.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
    body: JSON.stringify({ messages: [{ role: "user", content: "hi" }], ...body }),
  });
}

async function changeCredentials(accountId: string, next: ProviderCredential[]): Promise<void> {
  credentials.set(accountId, next);
  const event = encodeKeyChange({ keyHash: "", accountId, change: "byok_changed" });
  edge.bus.publish("gateway.key-changes.v1", event.key, event.value, event.headers);
  // The edge has taken the change once its model list says so (mistral is served only by a BYOK key).
  const secret = accountId === owner.principal.accountId ? owner.secret : undefined;
  if (!secret) return;
  const expectMistral = next.some((credential) => credential.providerId === "mistral");
  await expect
    .poll(async () => {
      const response = await fetch(`${edge.url}/v1/models`, {
        headers: { authorization: `Bearer ${secret}` },
      });
      const ids = ((await response.json()) as { data: Array<{ id: string }> }).data.map((model) => model.id);
      return ids.includes("mistral/unconfigured");
    })
    .toBe(expectMistral);
}

describe("BYOK provider keys on chat completions", () => {
  it("serves a provider the gateway has no key for with the account's own key, reporting is_byok", async () => {
    const response = await chat(owner.secret, { model: "mistral/unconfigured" });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { usage: { is_byok: boolean }; provider: string };
    expect(body.usage.is_byok).toBe(true);
    expect(mistral.requests().at(-1)?.headers.authorization).toBe(`Bearer ${USER_KEY}`);
    await expect.poll(() => edge.usageEvents().filter((event) => event.isByok).length).toBeGreaterThan(0);
  });

  it("tries the account's own endpoints first, and reports is_byok false on the gateway's keys", async () => {
    const own = await chat(owner.secret, { model: "test/failover" });
    expect(((await own.json()) as { usage: { is_byok: boolean } }).usage.is_byok).toBe(true);
    expect(edge.backup.requests()).toHaveLength(1);
    // Served with the account's groq key, not the gateway's (the fake accepts both).
    expect(edge.backup.requests()[0]?.headers.authorization).toBe(`Bearer ${BYOK_FAKE_KEY}`);
    expect(edge.primary.requests()).toHaveLength(0);

    const gateway = await chat(plain.secret, { model: "test/failover" });
    expect(((await gateway.json()) as { usage: { is_byok: boolean } }).usage.is_byok).toBe(false);
    expect(edge.primary.requests()).toHaveLength(1);
    expect(edge.primary.requests()[0]?.headers.authorization).toBe(`Bearer ${FAKE_KEY}`);
  });

  it("never reopens a provider the key's allow-list forbids", async () => {
    const error = await readError(await chat(narrow.secret, { model: "mistral/unconfigured" }));
    expect([error.status, error.type]).toEqual([403, "permission_error"]);
    expect(mistral.requests()).toHaveLength(0);
  });

  it("stops using a withdrawn key as soon as the byok_changed event arrives", async () => {
    expect((await chat(owner.secret, { model: "mistral/unconfigured" })).status).toBe(200);
    await changeCredentials("acct-byok", []);
    const error = await readError(await chat(owner.secret, { model: "mistral/unconfigured" }));
    expect([error.status, error.reason]).toEqual([503, "no_available_provider"]);
  });
});

describe("BYOK billing (api-decisions: the account pays only the fee)", () => {
  it("charges a BYOK request only BYOK_FEE_PERCENT and reports the provider's price upstream", async () => {
    // Its own edge, with a 10 % fee, on the same fakes' credentials.
    const feeEdge = await startEdgeHarness({
      keys: [owner],
      credentials,
      env: { MISTRAL_BASE_URL: mistral.baseUrl, BYOK_FEE_PERCENT: "10" },
    });
    try {
      const response = await fetch(`${feeEdge.url}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${owner.secret}`, "content-type": "application/json" },
        body: JSON.stringify({ model: "test/failover", messages: [{ role: "user", content: "hi" }] }),
      });
      expect(response.status).toBe(200);
      const body = (await response.json()) as {
        usage: { cost: number; is_byok: boolean; cost_details: { upstream_inference_cost: number } };
      };
      const upstream = body.usage.cost_details.upstream_inference_cost;
      expect(body.usage.is_byok).toBe(true);
      expect(upstream).toBeGreaterThan(0);
      expect(body.usage.cost).toBeCloseTo(upstream / 10, 15);
      const id = response.headers.get("x-generation-id") ?? "";
      await expect.poll(() => feeEdge.usageEvents().find((event) => event.generationId === id)).toBeDefined();
      const event = feeEdge.usageEvents().find((candidate) => candidate.generationId === id);
      const price = (event?.upstreamPromptCostPico ?? 0n) + (event?.upstreamCompletionCostPico ?? 0n);
      expect(usdToPico(String(upstream))).toBe(price);
      // The charge is the fee, in the event billing debits from and in the settled hold.
      expect(event).toMatchObject({ isByok: true, costPico: price / 10n });
      await expect
        .poll(() => feeEdge.billing.settles.find((settle) => settle.holdId === id)?.actualCostPico)
        .toBe(price / 10n);
      // A model only the account's own key serves: its hold is the fee of the worst case too.
      const own = await fetch(`${feeEdge.url}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${owner.secret}`, "content-type": "application/json" },
        body: JSON.stringify({ model: "mistral/unconfigured", messages: [{ role: "user", content: "hi" }] }),
      });
      expect(own.status).toBe(200);
      const ownId = own.headers.get("x-generation-id") ?? "";
      // Worst case: (3 + 3 + ⌈2 bytes / 2⌉) prompt tokens at 1 USD/M and 1,000 output at 2 USD/M.
      const worst = 7n * 1_000_000n + 1_000n * 2_000_000n;
      expect(feeEdge.billing.admits.find((admit) => admit.holdId === ownId)?.worstCaseCostPico).toBe(
        worst / 10n,
      );
    } finally {
      await feeEdge.stop();
    }
  });
});

describe("BYOK providers in /v1/models", () => {
  it("lists a model only the account's own key can serve, and only for that account", async () => {
    const ids = async (secret: string) => {
      const response = await fetch(`${edge.url}/v1/models`, {
        headers: { authorization: `Bearer ${secret}` },
      });
      return ((await response.json()) as { data: Array<{ id: string }> }).data.map((model) => model.id);
    };
    expect(await ids(owner.secret)).toContain("mistral/unconfigured");
    expect(await ids(plain.secret)).not.toContain("mistral/unconfigured");
    expect(await ids(narrow.secret)).not.toContain("mistral/unconfigured");
    const single = await fetch(`${edge.url}/v1/models/mistral/unconfigured`, {
      headers: { authorization: `Bearer ${owner.secret}` },
    });
    expect(single.status).toBe(200);
  });
});
