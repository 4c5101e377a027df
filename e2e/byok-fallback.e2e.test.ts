import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HostileGateway, startHostileGateway } from "./hostile/gateway.js";
import { eventually } from "./processes.js";

// Issue 30: a failing BYOK key (the provider answers 401) was a 502, where OpenRouter by default falls
// back to its shared key ("if your key encounters a rate limit or failure, OpenRouter will fall back to
// using shared OpenRouter credits"). Now the same provider is tried on the gateway's own key next, the
// failed attempt is recorded, and the request is billed at the normal price (it was not served on the
// account's key). The embedded default with OpenAI's strict fake, which refuses an unknown key with 401.

const MODEL = "openai/gpt-4o-mini";

let gateway: HostileGateway;

beforeAll(async () => {
  gateway = await startHostileGateway();
  const stored = await fetch(`${gateway.url}/api/v1/byok`, {
    method: "POST",
    headers: { authorization: `Bearer ${gateway.managementKey}`, "content-type": "application/json" },
    // Not a key the fake accepts: the account's own key is revoked, as far as the provider is concerned.
    body: JSON.stringify({ provider: "openai", key: "sk-revoked-byok-0123456789abcdef" }),
  });
  expect(stored.status).toBe(201);
}, 240_000);

afterAll(async () => {
  await gateway?.stop();
});

interface Record {
  usage: { is_byok: boolean; cost: number; cost_details: { upstream_inference_cost: number } };
  attempts: Array<{ provider: string; status: number; is_byok: boolean }>;
}

describe("a failing BYOK key", () => {
  it("falls back to the gateway's key for the same provider, records both attempts, bills the normal price", async () => {
    const response = await fetch(`${gateway.url}/api/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${gateway.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ model: MODEL, messages: [{ role: "user", content: "hi" }], max_tokens: 8 }),
    });
    expect(response.status).toBe(200);
    const id = response.headers.get("x-generation-id") ?? "";
    const record = await eventually(async () => {
      const lookup = await fetch(`${gateway.url}/api/v1/generation?id=${id}`, {
        headers: { authorization: `Bearer ${gateway.apiKey}` },
      });
      return lookup.status === 200 ? ((await lookup.json()) as { data: Record }).data : undefined;
    }, 30_000);
    expect(record.attempts).toEqual([
      expect.objectContaining({ provider: "openai", status: 401, is_byok: true }),
      expect.objectContaining({ provider: "openai", status: 200, is_byok: false }),
    ]);
    // Served on the shared key: not BYOK, the account charged the catalogue price (not the BYOK fee).
    expect(record.usage.is_byok).toBe(false);
    expect(record.usage.cost).toBeGreaterThan(0);
    expect(record.usage.cost).toBe(record.usage.cost_details.upstream_inference_cost);
  });
});
