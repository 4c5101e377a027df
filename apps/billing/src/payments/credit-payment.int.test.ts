import { randomBytes, randomUUID } from "node:crypto";
import { type LedgerEntryUpdate, MemoryAdmissionStore } from "@gw/admission-store";
import { type PaymentSettled, paymentSettled } from "@gw/events";
import { memoryLogger, silentLogger } from "@gw/logger";
import { describeWith } from "@gw/testing";
import type pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { LEDGER_CHANNEL, parseLedgerNotice } from "../notifications/channel.js";
import { createBillingTestDatabase, type TestDatabase } from "../test/database.js";
import { creditPayment, InvalidPaymentError, type PaymentCreditDeps } from "./credit-payment.js";

/**
 * creditPayment called directly on a real database (no bus, no RPC): what a settled x402 payment
 * becomes in the ledger, the hot view and the NOTIFY, and which payments it refuses. The bus-level
 * behaviour (redelivery, dead letters) is consumers/payments.int.test.ts's.
 */

/** 1 USDC atomic unit = 10^6 pico-dollars. */
const PICO_PER_ATOMIC = 1_000_000n;

function payment(overrides: Partial<PaymentSettled> = {}): PaymentSettled {
  const payer = `0x${randomBytes(20).toString("hex")}`;
  return {
    ...paymentSettled({
      network: "eip155:84532",
      payer,
      nonce: `0x${randomBytes(32).toString("hex")}`,
      accountId: `acct_${randomUUID()}`,
      walletAccountId: `eip155:84532:${payer}`,
      asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
      payTo: "0x2096000000000000000000000000000000000001",
      amountAtomic: "1500000",
      transaction: `0x${randomBytes(32).toString("hex")}`,
      x402Version: 2,
      settledAt: new Date(),
    }),
    ...overrides,
  };
}

/** The in-process store, remembering each entry applied to it. */
class RecordingStore extends MemoryAdmissionStore {
  readonly applied: { accountId: string; entry: LedgerEntryUpdate }[] = [];
  override async applyLedgerEntry(accountId: string, entry: LedgerEntryUpdate) {
    this.applied.push({ accountId, entry });
    return super.applyLedgerEntry(accountId, entry);
  }
}

class UnreachableStore extends MemoryAdmissionStore {
  override async applyLedgerEntry(): Promise<never> {
    throw new Error("connect ECONNREFUSED 127.0.0.1:6379");
  }
}

describeWith(["postgres"], "creditPayment", () => {
  let database: TestDatabase;
  let listener: pg.PoolClient;
  const notices: string[] = [];

  beforeAll(async () => {
    database = await createBillingTestDatabase();
    listener = await database.connectAgain().pool.connect();
    listener.on("notification", (message) => notices.push(message.payload ?? ""));
    await listener.query(`listen ${LEDGER_CHANNEL}`);
  });

  afterAll(async () => {
    listener?.release();
    await database?.drop();
  });

  const deps = (store = new RecordingStore()): PaymentCreditDeps & { store: RecordingStore } => ({
    db: database.database.db,
    store,
    logger: silentLogger(),
  });
  const rowsOf = (reference: string) =>
    database.database.db
      .selectFrom("ledger_entries")
      .select(["id", "account_id", "kind", "amount", "reference", "event_id"])
      .where("reference", "=", reference)
      .execute();

  it("writes one purchase of the atomic amount under the payment's reference, applies it and notifies", async () => {
    const run = deps();
    const paid = payment();
    await run.store.load(paid.accountId, { balancePico: 0n, seq: 0n });
    const credit = await creditPayment(run, paid);
    expect(credit.created).toBe(true);
    const rows = await rowsOf(paid.paymentReference);
    expect(rows).toEqual([
      {
        id: credit.entryId,
        account_id: paid.accountId,
        kind: "purchase",
        amount: "1.500000000000",
        reference: paid.paymentReference,
        event_id: null,
      },
    ]);
    const entry = { entryId: credit.entryId, amountPico: 1_500_000n * PICO_PER_ATOMIC, isPurchase: true };
    expect(run.store.applied).toEqual([{ accountId: paid.accountId, entry }]);
    expect(await run.store.view(paid.accountId)).toMatchObject({
      balancePico: entry.amountPico,
      purchasedPico: entry.amountPico,
    });
    await expect
      .poll(() => notices.map(parseLedgerNotice))
      .toContainEqual({ accountId: paid.accountId, entry });
  });

  it("credits a payment delivered again (event, RPC, redelivery) once, answering the first entry", async () => {
    const run = deps();
    const paid = payment();
    const first = await creditPayment(run, paid);
    const again = await creditPayment(run, paid);
    expect(again).toEqual({ entryId: first.entryId, created: false });
    expect(await rowsOf(paid.paymentReference)).toHaveLength(1);
    // The second delivery still applies the entry (the view may have missed the first): same id.
    expect(run.store.applied.map(({ entry }) => entry.entryId)).toEqual([first.entryId, first.entryId]);
    // One NOTIFY: the second delivery wrote nothing, so it tells no other process anything.
    await expect.poll(() => notices.filter((notice) => notice.includes(paid.accountId))).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(notices.filter((notice) => notice.includes(paid.accountId))).toHaveLength(1);
  });

  it("refuses the same reference with other figures, writing nothing", async () => {
    const run = deps();
    const paid = payment();
    await creditPayment(run, paid);
    const otherAccount = { ...paid, accountId: `acct_${randomUUID()}` };
    await expect(creditPayment(run, otherAccount)).rejects.toThrow(
      new InvalidPaymentError(`payment ${paid.paymentReference} was already credited with other figures`),
    );
    const otherAmount = { ...paid, amountAtomic: "1500001", amountPico: 1_500_001n * PICO_PER_ATOMIC };
    await expect(creditPayment(run, otherAmount)).rejects.toThrow(/already credited with other figures/);
    expect(await rowsOf(paid.paymentReference)).toHaveLength(1);
    expect(run.store.applied).toHaveLength(1);
  });

  it("refuses a payment whose figures disagree or are missing, before writing anything", async () => {
    const run = deps();
    const refused = async (overrides: Partial<PaymentSettled>, message: RegExp) => {
      const paid = payment(overrides);
      await expect(creditPayment(run, paid)).rejects.toThrow(message);
      await expect(creditPayment(run, paid)).rejects.toBeInstanceOf(InvalidPaymentError);
      expect(await rowsOf(paid.paymentReference)).toEqual([]);
    };
    await refused({ accountId: "" }, /^payment without account_id$/);
    await refused({ network: "" }, /^payment without network, payer or nonce$/);
    await refused({ payer: "" }, /^payment without network, payer or nonce$/);
    await refused({ nonce: "" }, /^payment without network, payer or nonce$/);
    await refused({ paymentReference: "x402:eip155:84532:0xother:0x01" }, /reference does not match/);
    await refused({ amountAtomic: "1.5" }, /^payment amount 1\.5 is not an atomic amount$/);
    await refused({ amountAtomic: "0", amountPico: 0n }, /^payment amount is not positive or disagrees/);
    // The payer's own claimed pico amount is never trusted over the atomic amount it must equal.
    await refused({ amountPico: 1_500_000n * PICO_PER_ATOMIC + 1n }, /disagrees with its atomic amount/);
    await refused({ amountPico: 1_500_000n * PICO_PER_ATOMIC - 1n }, /disagrees with its atomic amount/);
    expect(run.store.applied).toEqual([]);
  });

  it("keeps the credit when the hot view cannot be updated, and says so in the log", async () => {
    const { logger, lines } = memoryLogger("warn");
    const paid = payment();
    const credit = await creditPayment(
      { db: database.database.db, store: new UnreachableStore(), logger },
      paid,
    );
    expect(credit.created).toBe(true);
    expect(await rowsOf(paid.paymentReference)).toHaveLength(1);
    const warned = lines().map((line) => JSON.parse(line) as { msg: string; accountId: string });
    expect(warned).toMatchObject([
      { msg: "payment credited but not applied to the hot view", accountId: paid.accountId },
    ]);
  });
});
