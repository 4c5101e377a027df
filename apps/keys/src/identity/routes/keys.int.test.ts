import { hashSecret } from "@gw/auth";
import { describeWith } from "@gw/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, type KeysHarness, startKeysHarness } from "../../test/harness.js";
import { authenticateKey } from "../keys/authenticate.js";
import type { KeyJson } from "../keys/view.js";
import type { CreatedAccount } from "../operator.js";

describeWith(["postgres"], "key management REST", () => {
  const USD = 1_000_000_000_000n;

  const KEY_FIELDS = [
    "allowed_models",
    "allowed_providers",
    "byok_usage",
    "byok_usage_daily",
    "byok_usage_monthly",
    "byok_usage_weekly",
    "created_at",
    "creator_user_id",
    "disabled",
    "expires_at",
    "external_user",
    "hash",
    "include_byok_in_limit",
    "key_type",
    "label",
    "limit",
    "limit_remaining",
    "limit_reset",
    "name",
    "updated_at",
    "usage",
    "usage_daily",
    "usage_monthly",
    "usage_weekly",
    "workspace_id",
  ];

  let harness: KeysHarness;
  let owner: CreatedAccount;

  beforeAll(async () => {
    harness = await startKeysHarness();
    owner = await harness.account("owner");
  });

  afterAll(async () => {
    await harness?.close();
  });

  async function createKey(body: Record<string, unknown>, account: CreatedAccount = owner) {
    const response = await harness.request("POST", "/api/v1/keys", { key: account.managementKey, body });
    expect(response.status).toBe(201);
    return { secret: response.body.key as string, data: response.body.data as KeyJson };
  }

  describe("POST /api/v1/keys", () => {
    it("answers 201 with the Key object and the secret, and stores only the hash", async () => {
      const expiresAt = new Date(Date.now() + 7 * 86_400_000).toISOString();
      const response = await harness.request("POST", "/api/v1/keys", {
        key: owner.managementKey,
        body: {
          name: "ci runner",
          limit: 10,
          limit_reset: "monthly",
          expires_at: expiresAt,
          allowed_providers: ["openai"],
          allowed_models: ["openai/gpt-4o-mini"],
        },
      });
      expect(response.status).toBe(201);
      const secret = response.body.key as string;
      const data = response.body.data as KeyJson;
      expect(secret).toMatch(/^lr_live_[0-9a-f]{48}$/);
      expect(Object.keys(data).sort()).toEqual(KEY_FIELDS);
      expect(data).toMatchObject({
        hash: hashSecret(secret),
        name: "ci runner",
        label: `lr_live_${secret.slice(8, 11)}...${secret.slice(-4)}`,
        key_type: "regular",
        disabled: false,
        limit: 10,
        limit_remaining: 10,
        limit_reset: "monthly",
        include_byok_in_limit: false,
        allowed_providers: ["openai"],
        allowed_models: ["openai/gpt-4o-mini"],
        usage: 0,
        byok_usage: 0,
        expires_at: expiresAt,
        workspace_id: owner.accountId,
        creator_user_id: null,
        external_user: null,
      });

      const stored = await harness.database.db
        .selectFrom("api_keys")
        .selectAll()
        .where("hash", "=", data.hash)
        .execute();
      expect(stored).toHaveLength(1);
      expect(stored[0]?.created_by).toBe(owner.managementKeyHash);
      expect(JSON.stringify(stored)).not.toContain(secret.slice(8));

      const fetched = await harness.request("GET", `/api/v1/keys/${data.hash}`, { key: owner.managementKey });
      expect(fetched.status).toBe(200);
      expect(fetched.body).not.toHaveProperty("key");
      expect(fetched.body.data).toEqual(data);
    });

    it("makes a key that authenticates at once", async () => {
      const { secret } = await createKey({ name: "fresh" });
      const answer = await authenticateKey(harness.database.db, hashSecret(secret));
      expect(answer.result?.$case).toBe("principal");
    });

    it("requires a name", async () => {
      const response = await harness.request("POST", "/api/v1/keys", {
        key: owner.managementKey,
        body: { limit: 1 },
      });
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ type: "invalid_request_error" });
      expect((response.body.error as { message: string }).message).toMatch(/^name:/);
    });

    it("rejects unknown providers and models, naming them", async () => {
      const providers = await harness.request("POST", "/api/v1/keys", {
        key: owner.managementKey,
        body: { name: "k", allowed_providers: ["openai", "nope-provider"] },
      });
      expect(providers.status).toBe(400);
      expect((providers.body.error as { message: string }).message).toBe(
        "allowed_providers: unknown provider: nope-provider",
      );
      const models = await harness.request("POST", "/api/v1/keys", {
        key: owner.managementKey,
        body: { name: "k", allowed_models: ["acme/unknown", "acme/other"] },
      });
      expect(models.status).toBe(400);
      expect((models.body.error as { message: string }).message).toBe(
        "allowed_models: unknown models: acme/unknown, acme/other",
      );
    });

    it("rejects an expiry in the past and a negative limit", async () => {
      const past = await harness.request("POST", "/api/v1/keys", {
        key: owner.managementKey,
        body: { name: "k", expires_at: "2020-01-01T00:00:00Z" },
      });
      expect(past.status).toBe(400);
      expect((past.body.error as { message: string }).message).toMatch(/^expires_at:/);
      const negative = await harness.request("POST", "/api/v1/keys", {
        key: owner.managementKey,
        body: { name: "k", limit: -0.01 },
      });
      expect(negative.status).toBe(400);
    });

    it("answers malformed JSON with a 400, not a 500", async () => {
      const response = await fetch(`${harness.running.httpUrl}/api/v1/keys`, {
        method: "POST",
        headers: { authorization: `Bearer ${owner.managementKey}`, "content-type": "application/json" },
        body: "{not json",
      });
      expect(response.status).toBe(400);
    });
  });

  describe("GET /api/v1/keys", () => {
    it("lists the account's API keys with usage from billing", async () => {
      const account = await harness.account();
      const capped = await createKey({ name: "capped", limit: 5, limit_reset: "daily" }, account);
      const open = await createKey({ name: "open" }, account);
      harness.billing.setKeyUsage(capped.data.hash, {
        keyUsagePico: 4n * USD,
        keyUsageDailyPico: 2n * USD,
        keyUsageWeeklyPico: 3n * USD,
        keyUsageMonthlyPico: 4n * USD,
        keyByokUsagePico: USD,
      });
      const response = await harness.request("GET", "/api/v1/keys", { key: account.managementKey });
      expect(response.status).toBe(200);
      const data = response.body.data as KeyJson[];
      expect(response.body.next_page_token).toBeNull();
      expect(data.map((key) => key.hash)).toEqual([capped.data.hash, open.data.hash]);
      expect(data[0]).toMatchObject({
        usage: 4,
        usage_daily: 2,
        usage_weekly: 3,
        usage_monthly: 4,
        byok_usage: 1,
      });
      expect(data[0]?.limit_remaining).toBe(3);
      expect(data[1]).toMatchObject({ usage: 0, limit: null, limit_remaining: null });
    });

    it("leaves disabled keys out unless include_disabled=true", async () => {
      const account = await harness.account();
      const kept = await createKey({ name: "kept" }, account);
      const disabled = await createKey({ name: "off" }, account);
      const patch = await harness.request("PATCH", `/api/v1/keys/${disabled.data.hash}`, {
        key: account.managementKey,
        body: { disabled: true },
      });
      expect(patch.status).toBe(200);
      const active = await harness.request("GET", "/api/v1/keys", { key: account.managementKey });
      expect((active.body.data as KeyJson[]).map((key) => key.hash)).toEqual([kept.data.hash]);
      const all = await harness.request("GET", "/api/v1/keys?include_disabled=true", {
        key: account.managementKey,
      });
      expect((all.body.data as KeyJson[]).map((key) => key.hash)).toEqual([
        kept.data.hash,
        disabled.data.hash,
      ]);
    });

    it("pages with page_size and next_page_token, and honours offset", async () => {
      const account = await harness.account();
      const created: string[] = [];
      for (let index = 0; index < 5; index++)
        created.push((await createKey({ name: `k${index}` }, account)).data.hash);

      const seen: string[] = [];
      let path = "/api/v1/keys?page_size=2";
      const pageSizes: number[] = [];
      for (;;) {
        const page = await harness.request("GET", path, { key: account.managementKey });
        expect(page.status).toBe(200);
        const data = page.body.data as KeyJson[];
        pageSizes.push(data.length);
        seen.push(...data.map((key) => key.hash));
        const token = page.body.next_page_token as string | null;
        if (token === null) break;
        path = `/api/v1/keys?page_size=2&page_token=${encodeURIComponent(token)}`;
      }
      expect(pageSizes).toEqual([2, 2, 1]);
      expect(seen).toEqual(created);

      const offset = await harness.request("GET", "/api/v1/keys?offset=3&page_size=10", {
        key: account.managementKey,
      });
      expect((offset.body.data as KeyJson[]).map((key) => key.hash)).toEqual(created.slice(3));
      expect(offset.body.next_page_token).toBeNull();

      const tooBig = await harness.request("GET", "/api/v1/keys?page_size=501", {
        key: account.managementKey,
      });
      expect(tooBig.status).toBe(400);
      expect((tooBig.body.error as { message: string }).message).toMatch(/^page_size:/);
    });
  });

  describe("PATCH /api/v1/keys/:hash", () => {
    it("changes only the fields present", async () => {
      const { data } = await createKey({
        name: "before",
        limit: 5,
        limit_reset: "weekly",
        allowed_models: ["openai/gpt-4o-mini"],
      });
      const renamed = await harness.request("PATCH", `/api/v1/keys/${data.hash}`, {
        key: owner.managementKey,
        body: { name: "after" },
      });
      expect(renamed.status).toBe(200);
      expect(renamed.body.data).toMatchObject({
        name: "after",
        limit: 5,
        limit_reset: "weekly",
        allowed_models: ["openai/gpt-4o-mini"],
        disabled: false,
      });

      const uncapped = await harness.request("PATCH", `/api/v1/keys/${data.hash}`, {
        key: owner.managementKey,
        body: { limit: null, limit_reset: null, allowed_models: null, allowed_providers: ["together"] },
      });
      expect(uncapped.body.data).toMatchObject({
        name: "after",
        limit: null,
        limit_remaining: null,
        limit_reset: null,
        allowed_models: null,
        allowed_providers: ["together"],
      });
      const updatedAt = (uncapped.body.data as KeyJson).updated_at;
      expect(Date.parse(updatedAt)).toBeGreaterThanOrEqual(Date.parse(data.updated_at));
    });

    it('accepts limit_reset "never" on create and update and shows it as null (a lifetime cap)', async () => {
      const { data } = await createKey({ name: "lifetime", limit: 5, limit_reset: "never" });
      expect(data).toMatchObject({ limit: 5, limit_reset: null });
      await harness.request("PATCH", `/api/v1/keys/${data.hash}`, {
        key: owner.managementKey,
        body: { limit_reset: "daily" },
      });
      const back = await harness.request("PATCH", `/api/v1/keys/${data.hash}`, {
        key: owner.managementKey,
        body: { limit_reset: "never" },
      });
      expect(back.status).toBe(200);
      expect(back.body.data).toMatchObject({ limit: 5, limit_reset: null });
    });

    it("validates allow-lists like create", async () => {
      const { data } = await createKey({ name: "k" });
      const response = await harness.request("PATCH", `/api/v1/keys/${data.hash}`, {
        key: owner.managementKey,
        body: { allowed_providers: ["nowhere"] },
      });
      expect(response.status).toBe(400);
      expect((response.body.error as { message: string }).message).toBe(
        "allowed_providers: unknown provider: nowhere",
      );
    });

    it("disables and re-enables a key, announcing each change after it is stored", async () => {
      const { secret, data } = await createKey({ name: "toggled" });
      const before = harness.keyChanges.length;

      const disabled = await harness.request("PATCH", `/api/v1/keys/${data.hash}`, {
        key: owner.managementKey,
        body: { disabled: true },
      });
      expect(disabled.body.data).toMatchObject({ disabled: true });
      const refused = await authenticateKey(harness.database.db, hashSecret(secret));
      expect(refused.result?.$case).toBe("failure");
      await eventually(() => harness.keyChanges.length >= before + 1);
      expect(harness.keyChanges[before]).toEqual({
        keyHash: data.hash,
        accountId: owner.accountId,
        change: "disabled",
      });

      const enabled = await harness.request("PATCH", `/api/v1/keys/${data.hash}`, {
        key: owner.managementKey,
        body: { disabled: false },
      });
      expect(enabled.body.data).toMatchObject({ disabled: false });
      expect((await authenticateKey(harness.database.db, data.hash)).result?.$case).toBe("principal");
      await eventually(() => harness.keyChanges.length >= before + 2);
      expect(harness.keyChanges[before + 1]).toMatchObject({ keyHash: data.hash, change: "enabled" });

      await harness.request("PATCH", `/api/v1/keys/${data.hash}`, {
        key: owner.managementKey,
        body: { limit: 2 },
      });
      await eventually(() => harness.keyChanges.length >= before + 3);
      expect(harness.keyChanges[before + 2]).toMatchObject({ keyHash: data.hash, change: "updated" });
    });

    it("publishes nothing for an empty PATCH", async () => {
      const { data } = await createKey({ name: "still" });
      const before = harness.keyChanges.length;
      const response = await harness.request("PATCH", `/api/v1/keys/${data.hash}`, {
        key: owner.managementKey,
        body: {},
      });
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ name: "still", updated_at: data.updated_at });
      // A later change's event arriving first in line proves nothing was queued for the empty PATCH.
      await harness.request("PATCH", `/api/v1/keys/${data.hash}`, {
        key: owner.managementKey,
        body: { name: "x" },
      });
      await eventually(() => harness.keyChanges.length >= before + 1);
      expect(harness.keyChanges.slice(before)).toEqual([
        { keyHash: data.hash, accountId: owner.accountId, change: "updated" },
      ]);
    });
  });

  describe("DELETE /api/v1/keys/:hash", () => {
    it("deletes once, then 404s, and the key stops authenticating", async () => {
      const { secret, data } = await createKey({ name: "doomed" });
      const before = harness.keyChanges.length;
      const first = await harness.request("DELETE", `/api/v1/keys/${data.hash}`, {
        key: owner.managementKey,
      });
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ deleted: true, data: { deleted: true } });

      const second = await harness.request("DELETE", `/api/v1/keys/${data.hash}`, {
        key: owner.managementKey,
      });
      expect(second.status).toBe(404);
      expect(second.body.error).toMatchObject({ type: "not_found_error" });

      const get = await harness.request("GET", `/api/v1/keys/${data.hash}`, { key: owner.managementKey });
      expect(get.status).toBe(404);
      const list = await harness.request("GET", "/api/v1/keys?include_disabled=true&page_size=500", {
        key: owner.managementKey,
      });
      expect((list.body.data as KeyJson[]).map((key) => key.hash)).not.toContain(data.hash);

      const answer = await authenticateKey(harness.database.db, hashSecret(secret));
      expect(answer.result).toEqual({ $case: "failure", value: 1 });
      await eventually(() => harness.keyChanges.length >= before + 1);
      expect(harness.keyChanges[before]).toEqual({
        keyHash: data.hash,
        accountId: owner.accountId,
        change: "deleted",
      });
    });
  });
});
