import { describeWith } from "@gw/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type KeysHarness, startKeysHarness } from "../../test/harness.js";
import type { CredentialJson } from "../byok/view.js";
import type { CreatedAccount } from "../operator.js";

// Another account's management key must never see, change or remove this account's provider keys,
// and an API key must not manage them at all.
describeWith(["postgres"], "BYOK tenancy and key types", () => {
  let harness: KeysHarness;
  let owner: CreatedAccount;
  let intruder: CreatedAccount;
  let credential: CredentialJson;
  let apiKey: string;

  beforeAll(async () => {
    harness = await startKeysHarness();
    owner = await harness.account("owner");
    intruder = await harness.account("intruder");
    const created = await harness.request("POST", "/api/v1/byok", {
      key: owner.managementKey,
      body: { provider: "openai", key: "sk-owner-secret-0123456789" },
    });
    credential = created.body.data as CredentialJson;
    const key = await harness.request("POST", "/api/v1/keys", {
      key: owner.managementKey,
      body: { name: "api" },
    });
    apiKey = key.body.key as string;
  });

  afterAll(async () => {
    await harness?.close();
  });

  describe("another account's management key", () => {
    it("does not see the credential in its list", async () => {
      const listed = await harness.request("GET", "/api/v1/byok", { key: intruder.managementKey });
      expect(listed.body).toEqual({ data: [], total_count: 0 });
    });

    it("gets 404 reading it, exactly as for a credential that does not exist", async () => {
      const foreign = await harness.request("GET", `/api/v1/byok/${credential.id}`, {
        key: intruder.managementKey,
      });
      const missing = await harness.request("GET", "/api/v1/byok/byok_missing", {
        key: intruder.managementKey,
      });
      expect(foreign.status).toBe(404);
      expect(foreign.body).toEqual(missing.body);
    });

    it("gets 404 changing it, and nothing changes", async () => {
      const response = await harness.request("PATCH", `/api/v1/byok/${credential.id}`, {
        key: intruder.managementKey,
        body: { name: "mine now", position: 3 },
      });
      expect(response.status).toBe(404);
      const listed = await harness.request("GET", "/api/v1/byok", { key: owner.managementKey });
      expect((listed.body.data as CredentialJson[])[0]).toMatchObject({ name: "openai", position: 0 });
    });

    it("gets 404 deleting it, and the credential survives", async () => {
      const response = await harness.request("DELETE", `/api/v1/byok/${credential.id}`, {
        key: intruder.managementKey,
      });
      expect(response.status).toBe(404);
      const listed = await harness.request("GET", "/api/v1/byok", { key: owner.managementKey });
      expect(listed.body.data).toHaveLength(1);
    });
  });

  it("refuses an API key on every BYOK route with 403 permission_error", async () => {
    const routes: Array<[string, string, unknown]> = [
      ["GET", "/api/v1/byok", undefined],
      ["GET", `/api/v1/byok/${credential.id}`, undefined],
      ["POST", "/api/v1/byok", { provider: "together", key: "sk-x" }],
      ["PATCH", `/api/v1/byok/${credential.id}`, { position: 0 }],
      ["DELETE", `/api/v1/byok/${credential.id}`, undefined],
    ];
    for (const [method, path, body] of routes) {
      const response = await harness.request(method, path, { key: apiKey, ...(body ? { body } : {}) });
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(response.body.error).toMatchObject({ type: "permission_error" });
    }
  });

  it("answers a missing credential with the spec's 401", async () => {
    const response = await harness.request("GET", "/api/v1/byok");
    expect(response.status).toBe(401);
    expect(response.body.error).toMatchObject({ message: "missing or invalid Authorization header" });
  });
});
