import { INVALID_KEY_MESSAGE, MISSING_AUTH_MESSAGE } from "@gw/errors";
import { describeWith } from "@gw/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type KeysHarness, startKeysHarness } from "../../test/harness.js";
import type { KeyJson } from "../keys/view.js";
import { type CreatedAccount, createApiKey } from "../operator.js";

describeWith(["postgres"], "key management tenancy and key types", () => {
  // Tenancy and key-type rules of the key-management routes (real Postgres, real HTTP).

  let harness: KeysHarness;
  let alice: CreatedAccount;
  let bob: CreatedAccount;
  let aliceKey: KeyJson;

  beforeAll(async () => {
    harness = await startKeysHarness();
    alice = await harness.account("alice");
    bob = await harness.account("bob");
    const created = await harness.request("POST", "/api/v1/keys", {
      key: alice.managementKey,
      body: { name: "alice's key", limit: 3 },
    });
    aliceKey = created.body.data as KeyJson;
  });

  afterAll(async () => {
    await harness?.close();
  });

  async function aliceRow() {
    return harness.database.db
      .selectFrom("api_keys")
      .selectAll()
      .where("hash", "=", aliceKey.hash)
      .executeTakeFirstOrThrow();
  }

  describe("another account's management key", () => {
    it("gets 404 reading the key, exactly as for a key that does not exist", async () => {
      const foreign = await harness.request("GET", `/api/v1/keys/${aliceKey.hash}`, {
        key: bob.managementKey,
      });
      const missing = await harness.request("GET", `/api/v1/keys/${"0".repeat(64)}`, {
        key: bob.managementKey,
      });
      expect(foreign.status).toBe(404);
      expect(foreign.body).toEqual(missing.body);
    });

    it("gets 404 updating it, and nothing changes", async () => {
      const before = await aliceRow();
      const response = await harness.request("PATCH", `/api/v1/keys/${aliceKey.hash}`, {
        key: bob.managementKey,
        body: { disabled: true, name: "pwned", limit: 1000 },
      });
      expect(response.status).toBe(404);
      expect(await aliceRow()).toEqual(before);
    });

    it("gets 404 deleting it, and the key survives", async () => {
      const response = await harness.request("DELETE", `/api/v1/keys/${aliceKey.hash}`, {
        key: bob.managementKey,
      });
      expect(response.status).toBe(404);
      expect((await aliceRow()).deleted_at).toBeNull();
      const own = await harness.request("GET", `/api/v1/keys/${aliceKey.hash}`, { key: alice.managementKey });
      expect(own.status).toBe(200);
    });

    it("does not see it in its list", async () => {
      const list = await harness.request("GET", "/api/v1/keys?include_disabled=true&page_size=500", {
        key: bob.managementKey,
      });
      expect(list.status).toBe(200);
      expect((list.body.data as KeyJson[]).map((key) => key.hash)).not.toContain(aliceKey.hash);
      const aliceList = await harness.request("GET", "/api/v1/keys", { key: alice.managementKey });
      expect((aliceList.body.data as KeyJson[]).map((key) => key.hash)).toContain(aliceKey.hash);
    });

    it("creates keys in its own account only", async () => {
      const created = await harness.request("POST", "/api/v1/keys", {
        key: bob.managementKey,
        body: { name: "b" },
      });
      expect((created.body.data as KeyJson).workspace_id).toBe(bob.accountId);
    });
  });

  describe("key types and credentials", () => {
    it("refuses an API key on every management route with 403 permission_error", async () => {
      const apiKey = await createApiKey(harness.database, { accountId: alice.accountId, name: "inference" });
      const calls: Array<[string, string, unknown]> = [
        ["POST", "/api/v1/keys", { name: "sneaky" }],
        ["GET", "/api/v1/keys", undefined],
        ["GET", `/api/v1/keys/${aliceKey.hash}`, undefined],
        ["PATCH", `/api/v1/keys/${aliceKey.hash}`, { disabled: true }],
        ["DELETE", `/api/v1/keys/${aliceKey.hash}`, undefined],
      ];
      for (const [method, path, body] of calls) {
        const response = await harness.request(method, path, { key: apiKey.key, body });
        expect(response.status, `${method} ${path}`).toBe(403);
        expect(response.body.error).toMatchObject({ type: "permission_error" });
      }
      expect((await aliceRow()).disabled).toBe(false);
    });

    it("does not manage management keys through the API", async () => {
      const response = await harness.request("GET", `/api/v1/keys/${alice.managementKeyHash}`, {
        key: alice.managementKey,
      });
      expect(response.status).toBe(404);
    });

    it("answers a missing credential and an unknown key with the spec's 401s", async () => {
      const missing = await harness.request("GET", "/api/v1/keys");
      expect(missing.status).toBe(401);
      expect(missing.body.error).toMatchObject({
        type: "authentication_error",
        message: MISSING_AUTH_MESSAGE,
      });
      const unknown = await harness.request("GET", "/api/v1/keys", { key: `lr_mgmt_${"e".repeat(48)}` });
      expect(unknown.status).toBe(401);
      expect(unknown.body.error).toMatchObject({
        type: "authentication_error",
        message: INVALID_KEY_MESSAGE,
        metadata: { reason: "key_not_found" },
      });
    });
  });
});
