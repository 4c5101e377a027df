import { CatalogServiceClient } from "@gw/proto/catalog/v1/catalog";
import {
  type AuthenticateResponse,
  AuthFailureReason,
  KeyServiceClient,
  KeyType,
  LimitReset,
} from "@gw/proto/keys/v1/keys";
import { insecureCredentials, unaryCall } from "@gw/rpc";
import { describeWith } from "@gw/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type KeysHarness, startKeysHarness } from "../../test/harness.js";
import { AUTH_CACHE_TTL_MS, authenticateKey } from "../keys/authenticate.js";
import { type CreatedAccount, createApiKey } from "../operator.js";

describeWith(["postgres"], "KeyService", () => {
  let harness: KeysHarness;
  let owner: CreatedAccount;
  let client: InstanceType<typeof KeyServiceClient>;
  let authenticate: (keyHash: string) => Promise<AuthenticateResponse>;

  beforeAll(async () => {
    harness = await startKeysHarness();
    owner = await harness.account();
    client = new KeyServiceClient(harness.running.grpcAddress, insecureCredentials());
    const call = unaryCall(client, client.authenticate);
    authenticate = (keyHash) => call({ keyHash });
  });

  afterAll(async () => {
    client?.close();
    await harness?.close();
  });

  function failureOf(answer: AuthenticateResponse): AuthFailureReason | undefined {
    return answer.result?.$case === "failure" ? answer.result.value : undefined;
  }

  describe("KeyService.Authenticate over gRPC", () => {
    it("answers a usable key with its principal and a cache TTL", async () => {
      const expiresAt = new Date(Date.now() + 3_600_000);
      const { hash } = await createApiKey(harness.database, {
        accountId: owner.accountId,
        name: "worker",
        limit: "2.5",
        limitReset: "daily",
        expiresAt,
        allowedProviders: ["openai"],
        allowedModels: ["openai/gpt-4o-mini"],
        includeByokInLimit: true,
      });
      const answer = await authenticate(hash);
      expect(answer.cacheTtlMs).toBe(AUTH_CACHE_TTL_MS);
      expect(answer.result?.$case).toBe("principal");
      const principal = answer.result?.$case === "principal" ? answer.result.value : undefined;
      expect(principal).toMatchObject({
        accountId: owner.accountId,
        keyHash: hash,
        keyType: KeyType.KEY_TYPE_REGULAR,
        name: "worker",
        disabled: false,
        limitPico: 2_500_000_000_000n,
        limitReset: LimitReset.LIMIT_RESET_DAILY,
        allowedProviders: { values: ["openai"] },
        allowedModels: { values: ["openai/gpt-4o-mini"] },
        includeByokInLimit: true,
      });
      expect(principal?.expiresAt?.getTime()).toBe(expiresAt.getTime());
      expect(principal?.label).toMatch(/^lr_live_[0-9a-f]{3}\.\.\.[0-9a-f]{4}$/);
    });

    it("marks management keys as such and leaves absent limits and lists unset", async () => {
      const answer = await authenticate(owner.managementKeyHash);
      const principal = answer.result?.$case === "principal" ? answer.result.value : undefined;
      expect(principal?.keyType).toBe(KeyType.KEY_TYPE_MANAGEMENT);
      expect(principal?.limitPico).toBeUndefined();
      expect(principal?.allowedModels).toBeUndefined();
      expect(principal?.expiresAt).toBeUndefined();
    });

    it("answers not found for unknown and malformed hashes", async () => {
      expect(failureOf(await authenticate("f".repeat(64)))).toBe(
        AuthFailureReason.AUTH_FAILURE_REASON_KEY_NOT_FOUND,
      );
      expect(failureOf(await authenticate("not-a-hash"))).toBe(
        AuthFailureReason.AUTH_FAILURE_REASON_KEY_NOT_FOUND,
      );
    });

    it("answers disabled for a disabled key", async () => {
      const { hash } = await createApiKey(harness.database, { accountId: owner.accountId, name: "off" });
      await harness.database.db
        .updateTable("api_keys")
        .set({ disabled: true })
        .where("hash", "=", hash)
        .execute();
      expect(failureOf(await authenticate(hash))).toBe(AuthFailureReason.AUTH_FAILURE_REASON_KEY_DISABLED);
    });

    it("answers not found for a deleted key, whatever else is true of it", async () => {
      const { key, hash } = await createApiKey(harness.database, {
        accountId: owner.accountId,
        name: "gone",
      });
      const deleted = await harness.request("DELETE", `/api/v1/keys/${hash}`, { key: owner.managementKey });
      expect(deleted.status).toBe(200);
      expect(key).toMatch(/^lr_live_/);
      expect(failureOf(await authenticate(hash))).toBe(AuthFailureReason.AUTH_FAILURE_REASON_KEY_NOT_FOUND);
    });

    it("answers expired from the moment expires_at passes", async () => {
      const expiresAt = new Date(Date.now() + 60_000);
      const { hash } = await createApiKey(harness.database, {
        accountId: owner.accountId,
        name: "t",
        expiresAt,
      });
      const justBefore = await authenticateKey(harness.database.db, hash, new Date(expiresAt.getTime() - 1));
      expect(justBefore.result?.$case).toBe("principal");
      const atExpiry = await authenticateKey(harness.database.db, hash, expiresAt);
      expect(failureOf(atExpiry)).toBe(AuthFailureReason.AUTH_FAILURE_REASON_KEY_EXPIRED);

      await harness.database.db
        .updateTable("api_keys")
        .set({ expires_at: new Date(Date.now() - 1_000) })
        .where("hash", "=", hash)
        .execute();
      expect(failureOf(await authenticate(hash))).toBe(AuthFailureReason.AUTH_FAILURE_REASON_KEY_EXPIRED);
    });

    it("narrows the key's allow-lists to the account's scope", async () => {
      const account = await harness.account();
      const { hash } = await createApiKey(harness.database, {
        accountId: account.accountId,
        name: "wide",
        allowedProviders: ["openai", "together"],
      });
      await harness.database.db
        .updateTable("accounts")
        .set({ allowed_providers: ["together"], allowed_models: ["openai/gpt-4o-mini"] })
        .where("id", "=", account.accountId)
        .execute();
      const answer = await authenticate(hash);
      const principal = answer.result?.$case === "principal" ? answer.result.value : undefined;
      expect(principal?.allowedProviders).toEqual({ values: ["together"] });
      expect(principal?.allowedModels).toEqual({ values: ["openai/gpt-4o-mini"] });
    });

    it("serves CatalogService on the same server", async () => {
      const catalog = new CatalogServiceClient(harness.running.grpcAddress, insecureCredentials());
      try {
        const snapshot = await unaryCall(catalog, catalog.getSnapshot)({ knownVersion: "" });
        expect(snapshot.models.map((model) => model.id)).toContain("openai/gpt-4o-mini");
      } finally {
        catalog.close();
      }
    });
  });
});
