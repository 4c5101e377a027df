import { createHash, randomBytes } from "node:crypto";
import { WalletTokens } from "@gw/auth";
import { silentLogger } from "@gw/logger";
import { describeWith } from "@gw/testing";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, expect, it } from "vitest";
import { eventually, type KeysHarness, startKeysHarness } from "../../test/harness.js";
import { connectBillingUsage } from "../usage/billing.js";
import { ensurePayerAccount } from "../wallets/ensure-for-payment.js";
import { DEFAULT_SWEEP, type SweepDeps, sweepUnusedAccounts } from "./sweep.js";

// The sweep of wallet accounts nobody used, over real PostgreSQL: an old unused account goes (its key
// published as deleted, so every edge drops it); a fresh one, one with a credit or spend in billing,
// one with a key of its own and one an operator scoped all stay; replicas sweeping at once remove an
// account once. Billing's figures come from the harness's fixed billing (billing's accounting is
// billing's to test; the e2e suite hostile-signup runs the sweep against the real one).

const HOUR = 3_600;
const SETTINGS = { ...DEFAULT_SWEEP, afterSeconds: 24 * HOUR };
const DAY_AGO = () => new Date(Date.now() - 25 * HOUR * 1_000);

describeWith(["postgres"], "the sweep of unused wallet accounts", () => {
  const tokens = new WalletTokens({ secret: randomBytes(32) });
  let harness: KeysHarness;
  let deps: SweepDeps;
  let closeBilling: () => void;

  beforeAll(async () => {
    harness = await startKeysHarness({
      wallet: { tokens, publicBaseUrl: "https://gw.example" },
      // The app's own job stays off: each test runs a round itself.
      accounts: {
        creation: { perAddress: 0, global: 0, windowSeconds: HOUR },
        sweep: { ...SETTINGS, afterSeconds: 0 },
      },
    });
    const billing = connectBillingUsage(harness.billing.address, { timeoutMs: 2_000 });
    closeBilling = billing.close;
    deps = {
      db: harness.database.db,
      billing: billing.usage,
      publisher: harness.bus,
      keyChangesTopic: harness.topics.keyChanges,
      logger: silentLogger(),
    };
  });

  afterAll(async () => {
    closeBilling?.();
    await harness?.close();
  });

  /** A wallet account as a first payment creates it, last seen `seenAt`. */
  async function wallet(seenAt: Date) {
    const address = privateKeyToAccount(generatePrivateKey()).address;
    const created = await ensurePayerAccount(
      harness.database.db,
      { tokens, publicBaseUrl: new URL("https://gw.example") },
      `eip155:8453:${address}`,
    );
    await harness.database.db
      .updateTable("wallet_accounts")
      .set({ last_seen_at: seenAt })
      .where("address", "=", address)
      .execute();
    return { address, accountId: created.tenantId, keyHash: created.keyId };
  }

  const exists = async (accountId: string) =>
    (await harness.database.db
      .selectFrom("accounts")
      .select("id")
      .where("id", "=", accountId)
      .executeTakeFirst()) !== undefined;

  it("removes an old unused account with its wallet and key, and tells every edge the key is gone", async () => {
    const old = await wallet(DAY_AGO());
    expect(await sweepUnusedAccounts(deps, SETTINGS)).toBeGreaterThanOrEqual(1);
    expect(await exists(old.accountId)).toBe(false);
    const db = harness.database.db;
    expect(
      await db.selectFrom("api_keys").select("hash").where("hash", "=", old.keyHash).executeTakeFirst(),
    ).toBeUndefined();
    expect(
      await db
        .selectFrom("wallet_accounts")
        .select("address")
        .where("address", "=", old.address)
        .executeTakeFirst(),
    ).toBeUndefined();
    await eventually(() =>
      harness.keyChanges.some((change) => change.keyHash === old.keyHash && change.change === "deleted"),
    );
  });

  it("keeps a fresh account, and one whose wallet signed in or paid within the period", async () => {
    const fresh = await wallet(new Date());
    const seenAgain = await wallet(DAY_AGO());
    // A payment from the old wallet marks it seen again (EnsureWalletAccount on an existing wallet).
    await ensurePayerAccount(
      harness.database.db,
      { tokens, publicBaseUrl: new URL("https://gw.example") },
      `eip155:8453:${seenAgain.address}`,
    );
    await sweepUnusedAccounts(deps, SETTINGS);
    expect(await exists(fresh.accountId)).toBe(true);
    expect(await exists(seenAgain.accountId)).toBe(true);
  });

  it("never removes a used account: a credit, a purchase, spend, a free request, a key of its own, BYOK or an operator's scope", async () => {
    const kept = [];
    for (const usage of [
      { totalCreditsPico: 1n },
      { totalPurchasedPico: 1n },
      { totalUsagePico: 1n },
      { keyUsagePico: 1n },
      { keyByokUsagePico: 1n },
      { freeRequestsToday: 1 },
    ]) {
      const used = await wallet(DAY_AGO());
      harness.billing.setKeyUsage(used.keyHash, usage);
      kept.push(used);
    }
    const withKey = await wallet(DAY_AGO());
    await harness.database.db
      .insertInto("api_keys")
      .values({
        hash: createHash("sha256").update(randomBytes(32)).digest("hex"),
        account_id: withKey.accountId,
        key_type: "regular",
        name: "made explicitly",
        label: "sk-...",
      })
      .execute();
    const withByok = await wallet(DAY_AGO());
    await harness.database.db
      .insertInto("provider_credentials")
      .values({
        id: randomBytes(8).toString("hex"),
        account_id: withByok.accountId,
        provider_id: "openai",
        name: "mine",
        label: "sk-...mine",
        iv: randomBytes(12),
        auth_tag: randomBytes(16),
        ciphertext: randomBytes(32),
        position: 0,
      })
      .execute();
    const scoped = await wallet(DAY_AGO());
    await harness.database.db
      .updateTable("accounts")
      .set({ allowed_providers: ["openai"] })
      .where("id", "=", scoped.accountId)
      .execute();
    await sweepUnusedAccounts(deps, SETTINGS);
    for (const account of [...kept, withKey, withByok, scoped])
      expect(await exists(account.accountId)).toBe(true);
  });

  it("removes an account once when replicas sweep at once", async () => {
    const old = await wallet(DAY_AGO());
    const before = harness.keyChanges.length;
    const rounds = await Promise.all([
      sweepUnusedAccounts(deps, SETTINGS),
      sweepUnusedAccounts(deps, SETTINGS),
      sweepUnusedAccounts(deps, SETTINGS),
    ]);
    expect(rounds.reduce((sum, swept) => sum + swept, 0)).toBe(1);
    expect(await exists(old.accountId)).toBe(false);
    await eventually(() => harness.keyChanges.length > before);
    expect(harness.keyChanges.slice(before).filter((change) => change.keyHash === old.keyHash)).toHaveLength(
      1,
    );
  });
});
