import { describeWith } from "@gw/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type KeysHarness, startKeysHarness } from "../../test/harness.js";
import type { CreatedAccount } from "../operator.js";

// Every malformed request gets a 400 naming the field (or a 404 for an unknown key), never a 500.
describeWith(["postgres"], "key management bad input", () => {
  let harness: KeysHarness;
  let owner: CreatedAccount;
  let hash: string;

  beforeAll(async () => {
    harness = await startKeysHarness();
    owner = await harness.account("owner");
    const created = await harness.request("POST", "/api/v1/keys", {
      key: owner.managementKey,
      body: { name: "k" },
    });
    hash = (created.body.data as { hash: string }).hash;
  });

  afterAll(async () => {
    await harness?.close();
  });

  const message = (body: Record<string, unknown>) => (body.error as { message: string }).message;
  const future = new Date(Date.now() + 86_400_000);

  describe("POST /api/v1/keys", () => {
    const cases: Array<[string, unknown]> = [
      ["name", { name: 42 }],
      ["name", { name: "" }],
      ["limit", { name: "k", limit: -1 }],
      ["limit", { name: "k", limit: "10" }],
      ["limit_reset", { name: "k", limit_reset: "yearly" }],
      ["expires_at", { name: "k", expires_at: "tomorrow" }],
      ["expires_at", { name: "k", expires_at: future.toISOString().replace("Z", "+02:00") }],
      ["expires_at", { name: "k", expires_at: "2001-01-01T00:00:00Z" }],
      ["allowed_providers", { name: "k", allowed_providers: "openai" }],
      ["allowed_models", { name: "k", allowed_models: [1] }],
      ["include_byok_in_limit", { name: "k", include_byok_in_limit: "yes" }],
    ];
    for (const [field, body] of cases) {
      it(`400 naming ${field} for ${JSON.stringify(body)}`, async () => {
        const response = await harness.request("POST", "/api/v1/keys", { key: owner.managementKey, body });
        expect(response.status).toBe(400);
        expect(response.body.error).toMatchObject({ type: "invalid_request_error" });
        expect(message(response.body)).toMatch(new RegExp(`^${field}`));
      });
    }

    it("400 for a body that is not an object", async () => {
      const response = await harness.request("POST", "/api/v1/keys", { key: owner.managementKey, body: [1] });
      expect(response.status).toBe(400);
    });
  });

  describe("PATCH /api/v1/keys/:hash", () => {
    const cases: Array<[string, unknown]> = [
      ["disabled", { disabled: "true" }],
      ["limit", { limit: -0.5 }],
      ["limit_reset", { limit_reset: "hourly" }],
      ["name", { name: null }],
    ];
    for (const [field, body] of cases) {
      it(`400 naming ${field} for ${JSON.stringify(body)}`, async () => {
        const response = await harness.request("PATCH", `/api/v1/keys/${hash}`, {
          key: owner.managementKey,
          body,
        });
        expect(response.status).toBe(400);
        expect(message(response.body)).toMatch(new RegExp(`^${field}`));
      });
    }
  });

  describe("GET /api/v1/keys query", () => {
    const cases: Array<[string, string]> = [
      ["page_size", "page_size=501"],
      ["page_size", "page_size=0"],
      ["page_size", "page_size=ten"],
      ["offset", "offset=-1"],
      ["page_token", "page_token=not-ours"],
      ["include_disabled", "include_disabled=maybe"],
    ];
    for (const [field, query] of cases) {
      it(`400 naming ${field} for ?${query}`, async () => {
        const response = await harness.request("GET", `/api/v1/keys?${query}`, { key: owner.managementKey });
        expect(response.status).toBe(400);
        expect(message(response.body)).toMatch(new RegExp(`^${field}`));
      });
    }
  });

  it("never answers a 500 to extreme but well-typed query values", async () => {
    for (const query of [
      "offset=100000000000000000000",
      "offset=9007199254740991",
      "page_size=1.5",
      "offset=1e3",
    ]) {
      const response = await harness.request("GET", `/api/v1/keys?${query}`, { key: owner.managementKey });
      expect([200, 400], query).toContain(response.status);
    }
  });

  it("404 key_not_found for an unknown or malformed hash on every route", async () => {
    for (const target of ["0".repeat(64), "not-a-hash"]) {
      for (const method of ["GET", "PATCH", "DELETE"]) {
        const response = await harness.request(method, `/api/v1/keys/${target}`, {
          key: owner.managementKey,
          ...(method === "PATCH" ? { body: { name: "x" } } : {}),
        });
        expect(response.status, `${method} ${target}`).toBe(404);
        expect(response.body.error).toMatchObject({
          type: "not_found_error",
          metadata: { reason: "key_not_found" },
        });
      }
    }
  });

  it("accepts the management key by every authentication method", async () => {
    const base = harness.running.httpUrl;
    const headers: Array<Record<string, string>> = [
      { authorization: `Bearer ${owner.managementKey}` },
      { "x-api-key": owner.managementKey },
      { "x-goog-api-key": owner.managementKey },
    ];
    for (const header of headers) {
      expect((await fetch(`${base}/api/v1/keys`, { headers: header })).status).toBe(200);
    }
    expect((await fetch(`${base}/api/v1/keys?key=${owner.managementKey}`)).status).toBe(200);
  });
});
