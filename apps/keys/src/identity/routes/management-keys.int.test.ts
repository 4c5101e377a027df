import { hashSecret } from "@gw/auth";
import { describeWith } from "@gw/testing";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, type KeysHarness, startKeysHarness } from "../../test/harness.js";
import type { KeyJson } from "../keys/view.js";
import { type CreatedAccount, createApiKey, revokeAccountManagementKey } from "../operator.js";

// Revoking and rotating management keys through the API (issue 33): a key can act only on its own
// account's management keys, the account's last usable one cannot be revoked, the old secret stops
// working at once here and is announced on the key-change topic for every edge.

describeWith(["postgres"], "management keys REST", () => {
  let harness: KeysHarness;

  beforeAll(async () => {
    harness = await startKeysHarness();
  });

  afterAll(async () => {
    await harness?.close();
  });

  const list = (key: string) => harness.request("GET", "/api/v1/management-keys", { key });
  const revoke = (key: string, hash: string) =>
    harness.request("DELETE", `/api/v1/management-keys/${hash}`, { key });
  const rotate = (key: string, hash: string) =>
    harness.request("POST", `/api/v1/management-keys/${hash}/rotate`, { key });

  /** An account with two management keys: the first (from createAccount) and a second. */
  async function accountWithTwoKeys(): Promise<CreatedAccount & { second: string; secondHash: string }> {
    const account = await harness.account();
    const second = await createApiKey(harness.database, {
      accountId: account.accountId,
      name: "second",
      keyType: "management",
    });
    return { ...account, second: second.key, secondHash: second.hash };
  }

  async function changesAfter(before: number, count: number) {
    await eventually(() => harness.keyChanges.length >= before + count);
    return harness.keyChanges.slice(before);
  }

  describe("GET /api/v1/management-keys", () => {
    it("lists the account's management keys, never its API keys, another account's or a secret", async () => {
      const account = await accountWithTwoKeys();
      const other = await harness.account("other");
      await createApiKey(harness.database, { accountId: account.accountId, name: "an api key" });
      const response = await list(account.managementKey);
      expect(response.status).toBe(200);
      const data = response.body.data as KeyJson[];
      expect(data.map((key) => key.hash)).toEqual([account.managementKeyHash, account.secondHash]);
      expect(data.every((key) => key.key_type === "management" && key.usage === 0)).toBe(true);
      const text = JSON.stringify(response.body);
      for (const absent of [account.managementKey, account.second, other.managementKeyHash]) {
        expect(text).not.toContain(absent);
      }
    });

    it("refuses an API key (403) and no key (401)", async () => {
      const account = await harness.account();
      const apiKey = await createApiKey(harness.database, { accountId: account.accountId, name: "api" });
      expect((await list(apiKey.key)).status).toBe(403);
      expect((await harness.request("GET", "/api/v1/management-keys")).status).toBe(401);
    });
  });

  describe("DELETE /api/v1/management-keys/:hash", () => {
    it("revokes another management key of the account: refused at once, announced, a second delete 404", async () => {
      const account = await accountWithTwoKeys();
      const before = harness.keyChanges.length;
      const response = await revoke(account.managementKey, account.secondHash);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ deleted: true, data: { deleted: true } });
      expect((await list(account.second)).status).toBe(401);
      expect((await list(account.managementKey)).status).toBe(200);
      expect(await changesAfter(before, 1)).toEqual([
        { keyHash: account.secondHash, accountId: account.accountId, change: "deleted" },
      ]);
      expect((await revoke(account.managementKey, account.secondHash)).status).toBe(404);
    });

    it("lets a key revoke itself while another usable key remains", async () => {
      const account = await accountWithTwoKeys();
      expect((await revoke(account.second, account.secondHash)).status).toBe(200);
      expect((await list(account.second)).status).toBe(401);
    });

    it("refuses the account's last usable management key with 400 last_management_key; it keeps working", async () => {
      const account = await accountWithTwoKeys();
      // The second key is disabled: it cannot authenticate, so it does not count as a usable one.
      await harness.database.db
        .updateTable("api_keys")
        .set({ disabled: true })
        .where("hash", "=", account.secondHash)
        .execute();
      const before = harness.keyChanges.length;
      const response = await revoke(account.managementKey, account.managementKeyHash);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({
        error: { type: "invalid_request_error", code: 400, metadata: { reason: "last_management_key" } },
      });
      expect((await list(account.managementKey)).status).toBe(200);
      expect(harness.keyChanges.length).toBe(before);
    });

    it("lets exactly one of two keys revoking each other at once succeed: the account keeps one", async () => {
      const account = await accountWithTwoKeys();
      const answers = await Promise.all([
        revoke(account.managementKey, account.secondHash),
        revoke(account.second, account.managementKeyHash),
      ]);
      const statuses = answers.map((answer) => answer.status).sort();
      // The loser is either refused as the last key (400) or was itself revoked first (401).
      expect(statuses[0]).toBe(200);
      expect([400, 401]).toContain(statuses[1]);
      const live = await harness.database.db
        .selectFrom("api_keys")
        .select("hash")
        .where("account_id", "=", account.accountId)
        .where("deleted_at", "is", null)
        .execute();
      expect(live).toHaveLength(1);
    });

    it("answers 404 for another account's key and an unknown or malformed hash, and changes nothing", async () => {
      const account = await accountWithTwoKeys();
      const intruder = await accountWithTwoKeys();
      expect((await revoke(intruder.managementKey, account.secondHash)).status).toBe(404);
      expect((await revoke(intruder.managementKey, "0".repeat(64))).status).toBe(404);
      expect((await revoke(intruder.managementKey, "not-a-hash")).status).toBe(404);
      expect((await list(account.second)).status).toBe(200);
    });

    it("refuses an API key of the same account (403), which cannot revoke its management key", async () => {
      const account = await accountWithTwoKeys();
      const apiKey = await createApiKey(harness.database, { accountId: account.accountId, name: "api" });
      expect((await revoke(apiKey.key, account.secondHash)).status).toBe(403);
      expect((await list(account.second)).status).toBe(200);
    });
  });

  describe("POST /api/v1/management-keys/:hash/rotate", () => {
    it("returns a new secret once, keeps the name, stores only its hash; the old secret is refused", async () => {
      const account = await harness.account("rotating");
      const before = harness.keyChanges.length;
      const response = await rotate(account.managementKey, account.managementKeyHash);
      expect(response.status).toBe(201);
      const secret = response.body.key as string;
      const data = response.body.data as KeyJson;
      expect(secret).toMatch(/^lr_mgmt_[0-9a-f]{48}$/);
      expect(data).toMatchObject({
        hash: hashSecret(secret),
        key_type: "management",
        name: "rotating management key",
        disabled: false,
      });
      expect((await list(account.managementKey)).status).toBe(401);
      const listed = await list(secret);
      expect(listed.status).toBe(200);
      expect((listed.body.data as KeyJson[]).map((key) => key.hash)).toEqual([data.hash]);
      expect(await changesAfter(before, 1)).toEqual([
        { keyHash: account.managementKeyHash, accountId: account.accountId, change: "deleted" },
      ]);
      const stored = await sql<{ found: number }>`
        select count(*)::int as found from api_keys where row_to_json(api_keys)::text like ${`%${secret}%`}
      `.execute(harness.database.db);
      expect(stored.rows[0]?.found).toBe(0);
      // The old secret's rotation cannot be repeated: the key it named is gone.
      expect((await rotate(secret, account.managementKeyHash)).status).toBe(404);
    });

    it("answers 404 for another account's key and leaves that key working", async () => {
      const account = await harness.account();
      const intruder = await harness.account();
      expect((await rotate(intruder.managementKey, account.managementKeyHash)).status).toBe(404);
      expect((await list(account.managementKey)).status).toBe(200);
    });
  });

  describe("the operator's revocation", () => {
    it("refuses the last usable key unless allowLast, which leaves the account with none", async () => {
      const account = await harness.account();
      const target = { accountId: account.accountId, hash: account.managementKeyHash };
      await expect(revokeAccountManagementKey(harness.database, target)).rejects.toMatchObject({
        code: "last_management_key",
      });
      await revokeAccountManagementKey(harness.database, { ...target, allowLast: true });
      expect((await list(account.managementKey)).status).toBe(401);
    });
  });
});
