import { randomBytes } from "node:crypto";
import { GatewayError } from "@gw/errors";
import {
  decodeEnvelope,
  decodePayload,
  InProcessEventBus,
  KEY_CHANGED_V1,
  type KeyChanged,
} from "@gw/events";
import { describeWith, type MigratedTestDatabase, migratedTestDatabase } from "@gw/testing";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrations, SCHEMA } from "../../db/index.js";
import type { KeysTables } from "../../db/schema.js";
import type { WalletRef } from "../repositories/wallets.js";
import { ensureWalletAccount } from "./accounts.js";
import {
  type AccountCreationLimits,
  DEFAULT_ACCOUNT_CREATION_LIMITS,
  pruneCreationWindows,
  takeCreationSlot,
} from "./creation-limits.js";
import { revokeWalletTokens } from "./revoke.js";

// The wallet account's storage below the routes, over real PostgreSQL: the implicit key (created,
// replaced after an operator deleted it, revoked), the creation windows (their start, Retry-After,
// limits turned off, the defaults) and their pruning. Each test uses its own hour, so windows never mix.

const newWallet = (): WalletRef => ({
  namespace: "eip155",
  address: privateKeyToAccount(generatePrivateKey()).address,
});
const hour = (index: number) => new Date(Date.UTC(2030, 0, 1, index));

describeWith(["postgres"], "wallet accounts and creation windows", () => {
  let test: MigratedTestDatabase<KeysTables>;
  const db = () => test.database.db;
  const open: AccountCreationLimits = { perAddress: 0, global: 0, windowSeconds: 3_600 };

  beforeAll(async () => {
    test = await migratedTestDatabase<KeysTables>(SCHEMA, migrations);
  });

  afterAll(async () => {
    await test?.drop();
  });

  const refusalOf = async (run: () => Promise<unknown>): Promise<GatewayError> => {
    const error = await run().then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(GatewayError);
    return error as GatewayError;
  };

  describe("ensureWalletAccount", () => {
    it("names the implicit key after the wallet, and gives a fresh key when the operator deleted it", async () => {
      const wallet = newWallet();
      const creation = { limits: open, clientAddress: "192.0.2.10", now: hour(1) };
      const first = await ensureWalletAccount(db(), wallet, creation);
      expect(first.created).toBe(true);
      expect(first.key).toMatchObject({
        name: `wallet eip155:${wallet.address}`,
        label: `wallet ${wallet.address.slice(0, 6)}...${wallet.address.slice(-4)}`,
      });
      expect(first.key.label).toMatch(/^wallet 0x[0-9a-fA-F]{4}\.\.\.[0-9a-fA-F]{4}$/);

      await db()
        .updateTable("api_keys")
        .set({ deleted_at: new Date() })
        .where("hash", "=", first.key.hash)
        .execute();
      const again = await ensureWalletAccount(db(), wallet, creation);
      expect(again.created).toBe(false);
      expect(again.accountId).toBe(first.accountId);
      expect(again.key.hash).not.toBe(first.key.hash);
      expect(again.key.account_id).toBe(first.accountId);
      const row = await db()
        .selectFrom("wallet_accounts")
        .select("key_hash")
        .where("address", "=", wallet.address)
        .executeTakeFirstOrThrow();
      expect(row.key_hash).toBe(again.key.hash);
    });
  });

  describe("takeCreationSlot", () => {
    it("counts in the fixed window holding `now` and answers Retry-After with the seconds to its end", async () => {
      const limits = { perAddress: 1, global: 0, windowSeconds: 3_600 };
      const now = new Date(hour(2).getTime() + 10 * 60_000);
      await takeCreationSlot(db(), { limits, clientAddress: "198.51.100.20", now });
      const refused = await refusalOf(() =>
        takeCreationSlot(db(), { limits, clientAddress: "198.51.100.20", now }),
      );
      expect(refused.status).toBe(429);
      expect(refused.headers["Retry-After"]).toBe(String(50 * 60));
      expect(refused.message).toContain("from this client address (1 per window)");
      const rows = await db()
        .selectFrom("account_creation_windows")
        .select(["window_start", "created"])
        .where("subject", "=", "198.51.100.20")
        .execute();
      expect(rows).toEqual([{ window_start: hour(2), created: 1 }]);
    });

    it("answers Retry-After of at least a second in the window's last instant", async () => {
      const limits = { perAddress: 1, global: 0, windowSeconds: 3_600 };
      const now = new Date(hour(3).getTime() - 1);
      await takeCreationSlot(db(), { limits, clientAddress: "198.51.100.21", now });
      const refused = await refusalOf(() =>
        takeCreationSlot(db(), { limits, clientAddress: "198.51.100.21", now }),
      );
      expect(refused.headers["Retry-After"]).toBe("1");
    });

    it("turns a limit of 0 off: per address, and globally", async () => {
      const perAddressOff = { perAddress: 0, global: 10, windowSeconds: 3_600 };
      for (let i = 0; i < 3; i++)
        await takeCreationSlot(db(), { limits: perAddressOff, clientAddress: "198.51.100.30", now: hour(4) });
      const globalOff = { perAddress: 10, global: 0, windowSeconds: 3_600 };
      for (let i = 0; i < 3; i++)
        await takeCreationSlot(db(), { limits: globalOff, clientAddress: "198.51.100.31", now: hour(5) });
      const global = await refusalOf(() =>
        takeCreationSlot(db(), {
          limits: { perAddress: 0, global: 3, windowSeconds: 3_600 },
          clientAddress: "198.51.100.32",
          now: hour(4),
        }),
      );
      expect(global.metadata).toMatchObject({ scope: "global" });
      expect(global.message).toContain("on this gateway (3 per window)");
    });

    it("limits one address by default (20 new accounts an hour)", async () => {
      const take = () =>
        takeCreationSlot(db(), {
          limits: DEFAULT_ACCOUNT_CREATION_LIMITS,
          clientAddress: "198.51.100.40",
          now: hour(6),
        });
      for (let i = 0; i < 20; i++) await take();
      const refused = await refusalOf(take);
      expect(refused.metadata).toMatchObject({ scope: "address" });
    });
  });

  describe("pruneCreationWindows", () => {
    it("deletes the windows that started before the given time and keeps the others", async () => {
      const limits = { perAddress: 5, global: 0, windowSeconds: 3_600 };
      for (const index of [10, 11, 12])
        await takeCreationSlot(db(), { limits, clientAddress: "198.51.100.50", now: hour(index) });
      const starts = async () =>
        (
          await db()
            .selectFrom("account_creation_windows")
            .select("window_start")
            .where("subject", "=", "198.51.100.50")
            .orderBy("window_start")
            .execute()
        ).map((row) => row.window_start);
      expect(await starts()).toEqual([hour(10), hour(11), hour(12)]);
      const removed = await pruneCreationWindows(db(), hour(12));
      expect(removed).toBeGreaterThanOrEqual(2);
      expect(await starts()).toEqual([hour(12)]);
    });
  });

  describe("revokeWalletTokens", () => {
    it("raises the token version each time, with or without a change feed, and announces it as an update", async () => {
      const bus = new InProcessEventBus();
      const topic = `key-changes-${randomBytes(4).toString("hex")}`;
      const changes: KeyChanged[] = [];
      const subscription = await bus.subscribe({
        topic,
        groupId: "observer",
        fromBeginning: true,
        handler: async (message) => {
          const change = decodePayload(KEY_CHANGED_V1, decodeEnvelope(message.value));
          if (change) changes.push(change);
        },
      });
      const { accountId, key } = await ensureWalletAccount(db(), newWallet(), {
        limits: open,
        clientAddress: "192.0.2.11",
        now: hour(7),
      });
      expect(await revokeWalletTokens(test.database, { accountId })).toEqual({
        account_id: accountId,
        key_id: key.hash,
        token_version: 1,
      });
      const announced = await revokeWalletTokens(
        test.database,
        { accountId },
        { publisher: bus, keyChangesTopic: topic },
      );
      expect(announced.token_version).toBe(2);
      await expect.poll(() => changes).toEqual([{ keyHash: key.hash, accountId, change: "updated" }]);
      await subscription.stop();
      await bus.close();
    });

    it("answers not_found for an account that is no wallet's", async () => {
      const refused = await refusalOf(() =>
        revokeWalletTokens(test.database, { accountId: "acct_000000000000000000000000" }),
      );
      expect(refused.status).toBe(404);
      expect(refused.message).toContain("acct_000000000000000000000000 is not a wallet account");
    });
  });
});
