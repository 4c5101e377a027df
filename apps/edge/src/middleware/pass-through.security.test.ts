import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EdgeHarness, FAKE_KEY, startEchoApp, startEdgeHarness } from "../test/harness.js";
import { readJson } from "../test/http.js";
import { testKey } from "../test/principals.js";

type Echo = { authorization: string | null; url: string };

const alice = testKey("acct-alice", { management: true });
const bob = testKey("acct-bob", { management: true });
let edge: EdgeHarness;
let keysApp: Awaited<ReturnType<typeof startEchoApp>>;

beforeAll(async () => {
  keysApp = await startEchoApp("keys");
  edge = await startEdgeHarness({ keys: [alice, bob], controlPlaneUrls: { keys: keysApp.url } });
});

afterAll(async () => {
  await edge?.stop();
  await keysApp?.stop();
});

/** A GET whose path goes out exactly as written. */
function rawGet(path: string, secret: string): Promise<{ status: number; echoApp: string | null }> {
  const { hostname, port } = new URL(edge.url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: hostname, port, path, headers: { authorization: `Bearer ${secret}` } },
      (res) => {
        res.resume();
        const app = res.headers["x-echo-app"];
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, echoApp: typeof app === "string" ? app : null }),
        );
      },
    );
    req.on("error", reject);
    req.end();
  });
}

async function forwarded(headers: Record<string, string>, path = "/api/v1/keys"): Promise<Echo> {
  return readJson<Echo>(await fetch(`${edge.url}${path}`, { headers }));
}

describe("pass-through keeps each caller's own credential", () => {
  it("forwards exactly the caller's Authorization, so the owning app scopes the answer to that account", async () => {
    expect((await forwarded({ authorization: `Bearer ${alice.secret}` })).authorization).toBe(
      `Bearer ${alice.secret}`,
    );
    expect((await forwarded({ authorization: `Bearer ${bob.secret}` })).authorization).toBe(
      `Bearer ${bob.secret}`,
    );
  });

  it("never adds a credential of its own: no Authorization in, none out, and no provider key", async () => {
    const echo = await forwarded({});
    expect(echo.authorization).toBeNull();
    expect(JSON.stringify(echo)).not.toContain(FAKE_KEY);
  });

  it("does not let a path escape the owner's prefix", async () => {
    const echo = await forwarded(
      { authorization: `Bearer ${alice.secret}` },
      `/api/v1/keys/${bob.principal.keyHash}`,
    );
    expect(echo.url).toBe(`/api/v1/keys/${bob.principal.keyHash}`);
    const response = await fetch(`${edge.url}/api/v1/other`, {
      headers: { authorization: `Bearer ${alice.secret}` },
    });
    expect(response.status).toBe(404);
    expect(response.headers.get("x-echo-app")).toBeNull();
    // Sent byte for byte (fetch would resolve the dot segments before sending): none reaches the app.
    for (const path of [
      "/api/v1/keys/../../internal/admin",
      "/api/v1/keys/%2e%2e/%2E%2E/internal/admin",
      "/api/v1/keys/..%2f..%2finternal%2fadmin",
      "/api/v1/keys%2F..%2F..%2Finternal",
      "/api/v1/keys/..%5c..%5cinternal",
    ]) {
      const escaped = await rawGet(path, alice.secret);
      expect(escaped.echoApp, path).toBeNull();
      expect(escaped.status, path).toBeGreaterThanOrEqual(400);
      expect(escaped.status, path).toBeLessThan(500);
    }
  });
});
