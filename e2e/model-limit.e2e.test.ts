import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HostileGateway, startHostileGateway } from "./hostile/gateway.js";
import { eventually, runCli } from "./processes.js";

// Issue 30: the spec's "Model-specific limits" (per-model limits independent of the account quota;
// exceeding gives 429) could not be configured: no admin route or import set one. The operator sets it
// with POST /api/v1/admin/catalog/limits; the embedded default's edge picks the catalogue change up
// without a restart and answers the request over the limit with the spec's 429.

const MODEL = "openai/gpt-4o-mini";
const OTHER = "openai/gpt-4o";

let gateway: HostileGateway;
let operatorToken = "";

beforeAll(async () => {
  gateway = await startHostileGateway();
  const created = await runCli(
    "apps/standalone/dist/cli/main.js",
    ["operator-token", "create", "--name", "limits", "--json"],
    { GW_DATA_DIR: gateway.dataDir, DATABASE_URL: "" },
  );
  operatorToken = (JSON.parse(created) as { token: string }).token;
}, 240_000);

afterAll(async () => {
  await gateway?.stop();
});

function chat(model: string): Promise<Response> {
  return fetch(`${gateway.url}/api/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${gateway.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ model, messages: [{ role: "user", content: "hi" }], max_tokens: 8 }),
  });
}

function setLimit(body: unknown, token = operatorToken): Promise<Response> {
  return fetch(`${gateway.url}/api/v1/admin/catalog/limits`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

describe("a model-specific request limit set by the operator", () => {
  it("is refused to a tenant's management key, and validated", async () => {
    const body = { model: MODEL, limit: { requests: 2, interval_seconds: 60 } };
    expect((await setLimit(body, gateway.managementKey)).status).toBe(403);
    const bad = await setLimit({ model: MODEL, limit: { requests: 0, interval_seconds: 60 } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/limit\.requests/);
  });

  it("answers the request over it with 429 limit_source model:<id>, other models unaffected", async () => {
    // Without a limit, three requests in a row are served.
    for (let index = 0; index < 3; index++) expect((await chat(MODEL)).status).toBe(200);
    const set = await setLimit({ model: MODEL, limit: { requests: 2, interval_seconds: 3600 } });
    expect(set.status).toBe(200);
    // The edge refreshes its catalogue on its own (CATALOG_REFRESH_MS); bounded wait for the first 429.
    const refused = await eventually(async () => {
      const response = await chat(MODEL);
      return response.status === 429 ? response : undefined;
    }, 30_000);
    const body = (await refused.json()) as {
      error: { type: string; code: number; metadata: { limit_source: string } };
    };
    expect(body.error).toMatchObject({ type: "rate_limit_error", code: 429 });
    expect(body.error.metadata.limit_source).toBe(`model:${MODEL}`);
    expect(refused.headers.get("x-ratelimit-limit")).toBe("2");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // Per model, not the account's quota: another model is still served.
    expect((await chat(OTHER)).status).toBe(200);
    // Removed, the model is served again (after the same refresh).
    expect((await setLimit({ model: MODEL, limit: null })).status).toBe(200);
    await eventually(async () => ((await chat(MODEL)).status === 200 ? true : undefined), 30_000);
  });
});
