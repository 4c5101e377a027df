import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EdgeHarness, startEchoApp, startEdgeHarness } from "../test/harness.js";
import { readError, readJson } from "../test/http.js";
import { testKey } from "../test/principals.js";

type Echo = {
  app: string;
  method: string;
  url: string;
  authorization: string | null;
  contentType: string | null;
  body: string;
};

const key = testKey("acct-pass");
let edge: EdgeHarness;
let apps: Awaited<ReturnType<typeof startEchoApp>>[];

beforeAll(async () => {
  apps = await Promise.all([startEchoApp("keys"), startEchoApp("billing"), startEchoApp("generations")]);
  const [keys, billing, generations] = apps;
  edge = await startEdgeHarness({
    keys: [key],
    controlPlaneUrls: { keys: keys?.url, billing: billing?.url, generations: generations?.url },
  });
});

afterAll(async () => {
  await edge?.stop();
  await Promise.all((apps ?? []).map((app) => app.stop()));
});

describe("pass-through to the owning app", () => {
  it.each([
    ["GET", "/api/v1/keys?page_size=5", "keys"],
    ["POST", "/api/v1/keys", "keys"],
    ["PATCH", "/api/v1/keys/abc123", "keys"],
    ["DELETE", "/api/v1/keys/abc123", "keys"],
    ["GET", "/api/v1/models/openai/gpt-4o/endpoints", "keys"],
    ["POST", "/v1/x402/auth", "keys"],
    ["GET", "/api/v1/credits", "billing"],
    ["GET", "/api/v1/generation?id=gen-1", "generations"],
  ])("%s %s goes to %s with method, path, headers and body unchanged", async (method, path, app) => {
    const body = method === "POST" || method === "PATCH" ? '{"name":"n","limit":1.5}' : undefined;
    const response = await fetch(`${edge.url}${path}`, {
      method,
      headers: { authorization: "Bearer lr_mgmt_secret", "content-type": "application/json" },
      body,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-echo-app")).toBe(app);
    const echo = await readJson<Echo>(response);
    expect(echo).toMatchObject({ app, method, url: path, authorization: "Bearer lr_mgmt_secret" });
    expect(echo.body).toBe(body ?? "");
  });

  it("keeps the owner's status and forwards bodies the edge itself would not parse", async () => {
    const response = await fetch(`${edge.url}/api/v1/keys`, {
      method: "POST",
      headers: { "content-type": "text/plain", "x-echo-status": "422" },
      body: "not json at all",
    });
    expect(response.status).toBe(422);
    expect(await readJson<Echo>(response)).toMatchObject({
      contentType: "text/plain",
      body: "not json at all",
    });
  });

  it("serves GET /api/v1/key itself instead of forwarding it", async () => {
    const response = await fetch(`${edge.url}/api/v1/key`, {
      headers: { authorization: `Bearer ${key.secret}` },
    });
    expect(response.headers.get("x-echo-app")).toBeNull();
    expect(await readJson(response)).toHaveProperty("data.workspace_id", "acct-pass");
  });
});

describe("an unreachable owner", () => {
  it("is a 503 in the gateway's envelope", async () => {
    const down = await startEdgeHarness({ keys: [key], controlPlaneUrls: { keys: "http://127.0.0.1:9" } });
    try {
      const error = await readError(
        await fetch(`${down.url}/api/v1/keys`, { headers: { authorization: "Bearer x" } }),
      );
      expect(error).toMatchObject({
        status: 503,
        type: "service_unavailable",
        reason: "dependency_unavailable",
        message: "key service is unavailable",
      });
    } finally {
      await down.stop();
    }
  });
});
