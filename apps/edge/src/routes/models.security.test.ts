import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EdgeHarness, startEdgeHarness } from "../test/harness.js";
import { testKey } from "../test/principals.js";

const narrowModels = testKey("acct-a", { allowedModels: { values: ["demo/echo", "test/failover"] } });
const narrowProviders = testKey("acct-b", { allowedProviders: { values: ["groq"] } });
const open = testKey("acct-c");
let edge: EdgeHarness;

beforeAll(async () => {
  edge = await startEdgeHarness({ keys: [narrowModels, narrowProviders, open] });
});

afterAll(async () => {
  await edge?.stop();
});

async function listFor(secret: string, path = "/v1/models"): Promise<string[]> {
  const response = await fetch(`${edge.url}${path}`, { headers: { authorization: `Bearer ${secret}` } });
  const body = (await response.json()) as { data: { id: string }[] };
  return body.data.map((model) => model.id);
}

describe("GET /v1/models is scoped to the calling key", () => {
  it("shows a key only the models in its allow-list", async () => {
    expect(await listFor(narrowModels.secret)).toEqual(["demo/echo", "test/failover"]);
    expect(await listFor(narrowModels.secret, "/api/v1/models/user")).toEqual(["demo/echo", "test/failover"]);
  });

  it("shows a key only models served by its allowed providers, priced from those providers", async () => {
    for (const path of ["/v1/models", "/api/v1/models/user"]) {
      expect(await listFor(narrowProviders.secret, path)).toEqual([
        "test/backup-only",
        "test/embed-compat",
        "test/failover",
      ]);
    }
  });

  it("answers 404 for a single model outside the key's scope, as if it did not exist", async () => {
    const response = await fetch(`${edge.url}/v1/models/openai/gpt-4o-mini`, {
      headers: { authorization: `Bearer ${narrowModels.secret}` },
    });
    expect(response.status).toBe(404);
    const allowed = await fetch(`${edge.url}/v1/models/demo/echo`, {
      headers: { authorization: `Bearer ${narrowModels.secret}` },
    });
    expect(allowed.status).toBe(200);
  });

  it("is not widened or narrowed by another account's key", async () => {
    const [first, second] = await Promise.all([listFor(open.secret), listFor(narrowModels.secret)]);
    expect(first.length).toBeGreaterThan(second.length);
    expect(await listFor(narrowModels.secret)).toEqual(["demo/echo", "test/failover"]);
  });
});
