import { randomBytes } from "node:crypto";
import * as grpc from "@grpc/grpc-js";
import { InProcessEventBus } from "@gw/events";
import { KeyServiceClient } from "@gw/proto/keys/v1/keys";
import { describeWith, type MigratedTestDatabase, migratedTestDatabase } from "@gw/testing";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refreshCatalog } from "../../catalog/store.js";
import { migrations, SCHEMA } from "../../db/index.js";
import type { KeysTables } from "../../db/schema.js";
import { fixtureCatalog } from "../../test/catalog-fixture.js";
import { startKeysHarness } from "../../test/harness.js";
import { createAccount } from "../operator.js";
import { CredentialCipher, CredentialKeyError, keyIdOf } from "./cipher.js";
import { resealCredentials } from "./reseal.js";
import { addCredential, type ByokStore, changeCredential, decryptedCredentials } from "./service.js";

// BYOK_MASTER_KEY rotation (issue 33) against real PostgreSQL: rows under the old key open while the
// re-seal pass runs, the pass leaves every row under the new key (resumable, racing replicas and the
// routes' writes), and master keys that open nothing stored are refused at start, never garbage.

const OLD = randomBytes(32);
const NEW = randomBytes(32);
const WRONG = randomBytes(32);
const hex = (key: Buffer) => key.toString("hex");
const PROVIDERS = ["openai", "together"];

/** A fresh keys database with the test catalogue's providers (BYOK accepts only known providers). */
async function catalogued(): Promise<MigratedTestDatabase<KeysTables>> {
  const database = await migratedTestDatabase<KeysTables>(SCHEMA, migrations);
  await refreshCatalog(database.database.db, fixtureCatalog());
  return database;
}

describeWith(["postgres"], "BYOK_MASTER_KEY rotation", () => {
  let test: MigratedTestDatabase<KeysTables>;
  const bus = new InProcessEventBus();
  const storeWith = (cipher: CredentialCipher): ByokStore => ({
    db: test.database.db,
    cipher,
    publisher: bus,
    keyChangesTopic: "test-key-changes",
  });
  /** account id → provider → plaintext key, for every credential sealed so far. */
  const secrets = new Map<string, Map<string, string>>();

  const keyIds = async () => {
    const rows = await test.database.db
      .selectFrom("provider_credentials")
      .select(["key_id", sql<string>`count(*)`.as("n")])
      .groupBy("key_id")
      .execute();
    return Object.fromEntries(rows.map((row) => [row.key_id ?? "null", Number(row.n)]));
  };

  /** Seals `count` accounts × 2 providers under `cipher`, remembering the plaintexts. */
  const seedAccounts = async (cipher: CredentialCipher, count: number) => {
    const ids: string[] = [];
    for (let index = 0; index < count; index += 1) {
      const account = await createAccount(test.database, { name: `rotation ${secrets.size}` });
      const keys = new Map<string, string>();
      for (const provider of PROVIDERS) {
        const key = `sk-${provider}-${randomBytes(12).toString("hex")}`;
        await addCredential(storeWith(cipher), account.accountId, { provider, key });
        keys.set(provider, key);
      }
      secrets.set(account.accountId, keys);
      ids.push(account.accountId);
    }
    return ids;
  };

  /** Every account's credentials opened with `cipher` equal what was sealed. */
  const expectAllOpen = async (cipher: CredentialCipher) => {
    for (const [accountId, keys] of secrets) {
      const opened = await decryptedCredentials(storeWith(cipher), accountId);
      expect(new Map(opened.map((credential) => [credential.providerId, credential.apiKey]))).toEqual(keys);
    }
  };

  beforeAll(async () => {
    test = await catalogued();
  });

  afterAll(async () => {
    await bus.close();
    await test?.drop();
  });

  it("opens rows sealed under the previous key, and seals new ones under the current key, during the rotation", async () => {
    const old = CredentialCipher.fromMasterKey(hex(OLD));
    const [first] = await seedAccounts(old, 2);
    // One row as sealed before key ids were stored.
    await test.database.db
      .updateTable("provider_credentials")
      .set({ key_id: null })
      .where("account_id", "=", first ?? "")
      .where("provider_id", "=", "together")
      .execute();
    expect(await keyIds()).toEqual({ [keyIdOf(OLD)]: 3, null: 1 });

    const rotating = CredentialCipher.fromMasterKeys(hex(NEW), hex(OLD));
    await expectAllOpen(rotating);
    const [added] = await seedAccounts(rotating, 1);
    expect(await keyIds()).toEqual({ [keyIdOf(OLD)]: 3, null: 1, [keyIdOf(NEW)]: 2 });
    await expectAllOpen(rotating);
    // The new key alone does not open the old rows: a clear error naming the key, never a wrong secret.
    await expect(
      decryptedCredentials(storeWith(CredentialCipher.fromMasterKey(hex(NEW))), first ?? ""),
    ).rejects.toThrow(CredentialKeyError);
    await expect(decryptedCredentials(storeWith(old), added ?? "")).rejects.toThrow(
      new RegExp(`sealed under key ${keyIdOf(NEW)}.*BYOK_MASTER_KEY_PREVIOUS`),
    );
  });

  it("moves every row to the new key in a resumable pass, racing a second replica and the routes' re-keys", async () => {
    const old = CredentialCipher.fromMasterKey(hex(OLD));
    const accounts = await seedAccounts(old, 8);
    const rotating = CredentialCipher.fromMasterKeys(hex(NEW), hex(OLD));
    const staleBefore = (await keyIds())[keyIdOf(OLD)] ?? 0;
    const legacy = (await keyIds()).null ?? 0;

    // Interrupted after its first rows (the app stopping): resumed below, nothing done twice.
    // The signal reads as aborted from the pass's fourth look at it on: three rows done, then it stops.
    let looks = 0;
    const stopping = {
      get aborted() {
        looks += 1;
        return looks > 3;
      },
    } as AbortSignal;
    const interrupted = await resealCredentials(test.database.db, rotating, {
      batchSize: 2,
      signal: stopping,
    });
    expect(interrupted.resealed).toBe(3);
    expect(interrupted.remaining).toBe(staleBefore + legacy - 3);

    // Two replicas' passes at once, while an account re-keys one of its credentials through the service.
    const replica = test.connectAgain();
    const rekeyed = accounts[3] ?? "";
    const [target] = await decryptedCredentials(storeWith(rotating), rekeyed);
    const freshKey = `sk-openai-${randomBytes(12).toString("hex")}`;
    const [a, b] = await Promise.all([
      resealCredentials(test.database.db, rotating, { batchSize: 3 }),
      resealCredentials(replica.db, rotating, { batchSize: 5 }),
      changeCredential(storeWith(rotating), rekeyed, target?.id ?? "", { key: freshKey }),
    ]);
    secrets.get(rekeyed)?.set(target?.providerId ?? "", freshKey);

    expect(a?.failed).toEqual([]);
    expect(b?.failed).toEqual([]);
    expect(a?.remaining).toBe(0);
    expect(b?.remaining).toBe(0);
    // Each stale row rewritten once in all (the re-keyed one possibly by the account, not by a pass).
    const total = interrupted.resealed + (a?.resealed ?? 0) + (b?.resealed ?? 0);
    expect(total).toBeGreaterThanOrEqual(staleBefore + legacy - 1);
    expect(total).toBeLessThanOrEqual(staleBefore + legacy);
    expect(await keyIds()).toEqual({ [keyIdOf(NEW)]: secrets.size * PROVIDERS.length });
    // The account's new key survived the passes racing it; every row opens with the new key alone.
    await expectAllOpen(CredentialCipher.fromMasterKey(hex(NEW)));
    expect(await resealCredentials(test.database.db, rotating)).toEqual({
      resealed: 0,
      skipped: 0,
      failed: [],
      remaining: 0,
    });
  });

  describe("at start", () => {
    it("re-seals in the background on a replica started with both keys, and serves the old rows meanwhile", async () => {
      const other = await migratedTestDatabase<KeysTables>(SCHEMA, migrations);
      try {
        const first = await startKeysHarness({ database: other, byokMasterKey: hex(OLD) });
        const account = await first.account("restart");
        const created = await first.request("POST", "/api/v1/byok", {
          key: account.managementKey,
          body: { provider: "openai", key: "sk-openai-restart-0000000000" },
        });
        expect(created.status).toBe(201);
        await first.close();

        const second = await startKeysHarness({
          database: other,
          byokMasterKey: hex(NEW),
          byokMasterKeyPrevious: hex(OLD),
        });
        const client = new KeyServiceClient(second.running.grpcAddress, grpc.credentials.createInsecure());
        const opened = await new Promise<string[]>((resolve, reject) =>
          client.getProviderCredentials({ accountId: account.accountId }, (error, response) =>
            error ? reject(error) : resolve(response.credentials.map((credential) => credential.apiKey)),
          ),
        );
        client.close();
        expect(opened).toEqual(["sk-openai-restart-0000000000"]);
        await expect
          .poll(async () =>
            (await other.database.db.selectFrom("provider_credentials").select("key_id").execute()).map(
              (row) => row.key_id,
            ),
          )
          .toEqual([keyIdOf(NEW)]);
        await second.close();
        // The rotation is over: the new key alone starts.
        const third = await startKeysHarness({ database: other, byokMasterKey: hex(NEW) });
        await third.close();
      } finally {
        await other.drop();
      }
    });

    it.each([
      ["a wrong key", () => ({ byokMasterKey: hex(WRONG) })],
      ["the old key after the rotation", () => ({ byokMasterKey: hex(OLD) })],
      [
        "a wrong previous key",
        () => ({ byokMasterKey: hex(WRONG), byokMasterKeyPrevious: hex(randomBytes(32)) }),
      ],
    ])("refuses %s, naming BYOK_MASTER_KEY", async (_label, keys) => {
      const started = startKeysHarness({ database: test, ...keys() });
      await expect(started).rejects.toThrow(/BYOK_MASTER_KEY: \d+ BYOK credential\(s\) are sealed under key/);
    });

    it("refuses a key that opens none of the rows sealed before key ids were stored", async () => {
      const other = await catalogued();
      try {
        const account = await createAccount(other.database, { name: "legacy" });
        const store = { ...storeWith(CredentialCipher.fromMasterKey(hex(OLD))), db: other.database.db };
        await addCredential(store, account.accountId, { provider: "openai", key: "sk-openai-legacy-000000" });
        await other.database.db.updateTable("provider_credentials").set({ key_id: null }).execute();
        await expect(startKeysHarness({ database: other, byokMasterKey: hex(WRONG) })).rejects.toThrow(
          /sealed before key ids were stored open with none of the keys held/,
        );
        // The right key opens it and the start's pass gives it its key id.
        const right = await startKeysHarness({ database: other, byokMasterKey: hex(OLD) });
        await expect
          .poll(
            async () =>
              (await other.database.db.selectFrom("provider_credentials").select("key_id").execute())[0],
          )
          .toEqual({ key_id: keyIdOf(OLD) });
        await right.close();
      } finally {
        await other.drop();
      }
    });
  });
});
