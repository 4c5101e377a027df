import { randomBytes } from "node:crypto";
import * as grpc from "@grpc/grpc-js";
import { KeyServiceClient } from "@gw/proto/keys/v1/keys";
import { describeWith } from "@gw/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, type KeysHarness, startKeysHarness } from "../../test/harness.js";
import type { CredentialJson } from "../byok/view.js";
import { type CreatedAccount, setAccountScope } from "../operator.js";

// OpenRouter's BYOK key object, plus our position and updated_at.
const CREDENTIAL_FIELDS = [
  "allowed_api_key_hashes",
  "allowed_models",
  "allowed_user_ids",
  "created_at",
  "declared_zdr",
  "disabled",
  "id",
  "is_byok_only",
  "is_fallback",
  "is_required",
  "label",
  "name",
  "position",
  "provider",
  "sort_order",
  "updated_at",
  "workspace_id",
];
const OPENAI_KEY = `sk-proj-${"a1".repeat(20)}wxyz`;

describeWith(["postgres"], "BYOK provider credentials", () => {
  const master = randomBytes(32).toString("hex");
  let harness: KeysHarness;
  let owner: CreatedAccount;
  let client: KeyServiceClient;

  beforeAll(async () => {
    harness = await startKeysHarness({ byokMasterKey: master });
    owner = await harness.account("owner");
    client = new KeyServiceClient(harness.running.grpcAddress, grpc.credentials.createInsecure());
  });

  afterAll(async () => {
    client?.close();
    await harness?.close();
  });

  const call = (method: string, path: string, body?: unknown, key = owner.managementKey) =>
    harness.request(method, path, { key, ...(body === undefined ? {} : { body }) });

  const credentialsOf = (accountId: string) =>
    new Promise<{ providerId: string; apiKey: string; position: number }[]>((resolve, reject) => {
      client.getProviderCredentials({ accountId }, (error, response) =>
        error ? reject(error) : resolve(response.credentials),
      );
    });

  describe("POST and GET /api/v1/byok", () => {
    it("stores the key encrypted, shows only its masked label, and hands it decrypted to the edge", async () => {
      const created = await call("POST", "/api/v1/byok", {
        provider: "openai",
        key: OPENAI_KEY,
        name: "prod",
      });
      expect(created.status).toBe(201);
      const data = created.body.data as CredentialJson;
      expect(Object.keys(data).sort()).toEqual(CREDENTIAL_FIELDS);
      expect(data).toMatchObject({ provider: "openai", name: "prod", label: "sk-...wxyz", position: 0 });
      expect(JSON.stringify(created.body)).not.toContain(OPENAI_KEY.slice(3, -4));

      const row = await harness.database.db
        .selectFrom("provider_credentials")
        .selectAll()
        .where("id", "=", data.id)
        .executeTakeFirstOrThrow();
      expect(row.ciphertext.toString("latin1")).not.toContain("a1a1");
      expect(row.iv.length).toBe(12);
      expect(row.auth_tag.length).toBe(16);

      const listed = await call("GET", "/api/v1/byok");
      expect(listed.body).toEqual({ data: [data], total_count: 1 });
      expect((await call("GET", `/api/v1/byok/${data.id}`)).body).toEqual({ data });
      expect(await credentialsOf(owner.accountId)).toEqual([
        { id: data.id, providerId: "openai", apiKey: OPENAI_KEY, position: 0 },
      ]);
      await eventually(() =>
        harness.keyChanges.some(
          (change) => change.accountId === owner.accountId && change.change === "byok_changed",
        ),
      );
    });

    it("answers concurrent POSTs for one provider with one 201 and 400s, never a 500", async () => {
      const account = await harness.account("race");
      const responses = await Promise.all(
        Array.from({ length: 8 }, (_, index) =>
          call(
            "POST",
            "/api/v1/byok",
            { provider: "together", key: `sk-race-${index}-000000000` },
            account.managementKey,
          ),
        ),
      );
      const statuses = responses.map((response) => response.status).sort();
      expect(statuses).toEqual([201, 400, 400, 400, 400, 400, 400, 400]);
    });

    it("rejects bad input with a 400 naming the field, never a 500", async () => {
      const cases: Array<[unknown, string]> = [
        [{ key: "sk-x" }, "provider"],
        [{ provider: "openai" }, "key"],
        [{ provider: 7, key: "sk-x" }, "provider"],
        [{ provider: "nope", key: "sk-x" }, "provider"],
        [{ provider: "openai", key: "sk-another" }, "provider"],
        [[1, 2], ""],
      ];
      for (const [body, field] of cases) {
        const response = await call("POST", "/api/v1/byok", body);
        expect(response.status, JSON.stringify(body)).toBe(400);
        expect((response.body.error as { message: string }).message).toMatch(new RegExp(`^${field}`));
      }
      const patched = await call("PATCH", "/api/v1/byok/byok_missing", { position: -1 });
      expect(patched.status).toBe(400);
      expect((patched.body.error as { message: string }).message).toMatch(/^position/);
    });
  });

  describe("PATCH and DELETE /api/v1/byok/:id", () => {
    it("re-orders, renames and deletes; a second delete is a 404", async () => {
      const account = await harness.account("order");
      const add = async (provider: string) =>
        (
          await call(
            "POST",
            "/api/v1/byok",
            { provider, key: `sk-${provider}-${"9".repeat(20)}` },
            account.managementKey,
          )
        ).body.data as CredentialJson;
      const openai = await add("openai");
      const together = await add("together");
      expect([openai.position, together.position]).toEqual([0, 1]);

      const moved = await call(
        "PATCH",
        `/api/v1/byok/${together.id}`,
        { position: 0, name: "first" },
        account.managementKey,
      );
      expect(moved.status).toBe(200);
      expect(moved.body.data).toMatchObject({ id: together.id, position: 0, name: "first" });
      const order = (await credentialsOf(account.accountId)).map((entry) => entry.providerId);
      expect(order).toEqual(["together", "openai"]);

      const deleted = await call("DELETE", `/api/v1/byok/${together.id}`, undefined, account.managementKey);
      expect(deleted.body).toEqual({ deleted: true, data: { deleted: true } });
      expect(
        (await call("DELETE", `/api/v1/byok/${together.id}`, undefined, account.managementKey)).status,
      ).toBe(404);
      expect((await credentialsOf(account.accountId)).map((entry) => entry.providerId)).toEqual(["openai"]);
      expect(
        (await call("PATCH", "/api/v1/byok/byok_unknown", { name: "x" }, account.managementKey)).status,
      ).toBe(404);
    });

    it("switches a key off and on, rotates it, and accepts OpenRouter's sort_order", async () => {
      const account = await harness.account("switch");
      const created = await call(
        "POST",
        "/api/v1/byok",
        { provider: "openai", key: "sk-first-key-000000000001", disabled: true },
        account.managementKey,
      );
      const id = (created.body.data as CredentialJson).id;
      expect(created.body.data).toMatchObject({ disabled: true, workspace_id: account.accountId });
      expect(await credentialsOf(account.accountId)).toEqual([]);

      const enabled = await call(
        "PATCH",
        `/api/v1/byok/${id}`,
        { disabled: false, key: "sk-second-key-00000000002", sort_order: 0 },
        account.managementKey,
      );
      expect(enabled.body.data).toMatchObject({ disabled: false, label: "sk-...0002", sort_order: 0 });
      expect((await credentialsOf(account.accountId)).map((entry) => entry.apiKey)).toEqual([
        "sk-second-key-00000000002",
      ]);
    });

    it("pages the list with limit and offset and filters by provider", async () => {
      const account = await harness.account("pages");
      for (const provider of ["openai", "together", "demo"]) {
        await call(
          "POST",
          "/api/v1/byok",
          { provider, key: `sk-${provider}-00000000000000` },
          account.managementKey,
        );
      }
      const page = await call("GET", "/api/v1/byok?limit=2&offset=1", undefined, account.managementKey);
      expect((page.body.data as CredentialJson[]).map((entry) => entry.provider)).toEqual([
        "together",
        "demo",
      ]);
      expect(page.body.total_count).toBe(3);
      const filtered = await call("GET", "/api/v1/byok?provider=together", undefined, account.managementKey);
      expect(filtered.body).toMatchObject({ total_count: 1, data: [{ provider: "together" }] });
      const bad = await call("GET", "/api/v1/byok?limit=501", undefined, account.managementKey);
      expect(bad.status).toBe(400);
      expect((bad.body.error as { message: string }).message).toMatch(/^limit/);
    });

    it("refuses a provider outside the account's scope with 403", async () => {
      const account = await harness.account("scoped");
      await setAccountScope(harness.database, {
        accountId: account.accountId,
        allowedProviders: ["openai"],
        allowedModels: null,
      });
      const response = await call(
        "POST",
        "/api/v1/byok",
        { provider: "together", key: "sk-t" },
        account.managementKey,
      );
      expect(response.status).toBe(403);
      expect(response.body.error).toMatchObject({ type: "permission_error" });
    });
  });
});

describeWith(["postgres"], "BYOK without a master key", () => {
  let harness: KeysHarness;

  beforeAll(async () => {
    harness = await startKeysHarness({ byokMasterKey: null });
  });

  afterAll(async () => {
    await harness?.close();
  });

  it("answers the BYOK routes with 503 byok_not_configured and keeps key management working", async () => {
    const account = await harness.account();
    const response = await harness.request("POST", "/api/v1/byok", {
      key: account.managementKey,
      body: { provider: "openai", key: "sk-x" },
    });
    expect(response.status).toBe(503);
    expect(response.body.error).toMatchObject({ metadata: { reason: "byok_not_configured" } });
    const keys = await harness.request("POST", "/api/v1/keys", {
      key: account.managementKey,
      body: { name: "k" },
    });
    expect(keys.status).toBe(201);
  });
});
