import { randomUUID } from "node:crypto";
import { status } from "@grpc/grpc-js";
import { connectRedis, DEFAULT_MAX_VIEW_AGE_MS, MemoryAdmissionStore } from "@gw/admission-store";
import { type AdmitRequest, RefusalCode } from "@gw/proto/billing/v1/billing";
import { describeWith, serviceUrl } from "@gw/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { addCredits } from "../operator/credits.js";
import { insertUsageEntry, inTransaction } from "../repositories/ledger-write.js";
import { eventually } from "../test/eventually.js";
import { type Harness, redisStore, startHarness, TestClock, USD } from "../test/harness.js";

const HOLD_TTL_MS = 60_000;

function admitRequest(
  accountId: string,
  worstCaseCostPico: bigint,
  holdId = `gen-${randomUUID()}`,
): AdmitRequest {
  return {
    holdId,
    accountId,
    keyHash: "k".repeat(64),
    modelId: "openai/gpt-4o",
    isFreeModel: false,
    worstCaseCostPico,
  };
}

const newAccount = (): string => `acct_${randomUUID()}`;

describeWith(["postgres", "redis"], "BillingService.Admit on Redis", () => {
  let harness: Harness;
  const clock = new TestClock();

  beforeAll(async () => {
    harness = await startHarness({ clock, admission: { holdTtlMs: HOLD_TTL_MS } });
  });

  afterAll(async () => {
    await harness.stop();
  });

  it("refuses an account without credits with INSUFFICIENT_CREDITS from the account", async () => {
    const response = await harness.rpc.admit(admitRequest(newAccount(), 1n));
    expect(response.admitted).toBe(false);
    expect(response.refusal).toMatchObject({
      code: RefusalCode.REFUSAL_CODE_INSUFFICIENT_CREDITS,
      limitSource: "account",
    });
  });

  it("loads a cold view from the ledger, holds spend, and refuses once the balance is used up", async () => {
    const account = newAccount();
    await addCredits(harness.db.database, { accountId: account, amountPico: USD, kind: "purchase" });
    const first = await harness.rpc.admit(admitRequest(account, (USD * 4n) / 10n));
    expect(first).toMatchObject({ admitted: true, holdExpiresUnixMs: BigInt(clock.value + HOLD_TTL_MS) });
    expect((await harness.rpc.admit(admitRequest(account, (USD * 4n) / 10n))).admitted).toBe(true);
    const third = await harness.rpc.admit(admitRequest(account, (USD * 4n) / 10n));
    expect(third.admitted).toBe(false);
    expect(third.refusal?.code).toBe(RefusalCode.REFUSAL_CODE_INSUFFICIENT_CREDITS);
  });

  it("admits again after another process adds credits (LISTEN/NOTIFY), without waiting for a reload", async () => {
    const account = newAccount();
    await addCredits(harness.db.database, { accountId: account, amountPico: USD, kind: "grant" });
    expect((await harness.rpc.admit(admitRequest(account, USD))).admitted).toBe(true);
    expect((await harness.rpc.admit(admitRequest(account, 1n))).admitted).toBe(false);
    // The operator CLI: its own connection pool, nothing shared with the running app.
    const cli = harness.db.connectAgain();
    await addCredits(cli, {
      accountId: account,
      amountPico: 2n * USD,
      kind: "purchase",
      reference: randomUUID(),
    });
    await eventually(async () =>
      expect((await harness.rpc.admit(admitRequest(account, USD))).admitted).toBe(true),
    );
    const view = await harness.store.view(account, clock.value);
    // The warm view was updated in place: both holds are still there.
    expect(view).toMatchObject({ balancePico: 3n * USD, heldPico: 2n * USD, availablePico: USD });
  });

  it("is idempotent on the hold id", async () => {
    const account = newAccount();
    await addCredits(harness.db.database, { accountId: account, amountPico: USD, kind: "grant" });
    const request = admitRequest(account, USD);
    expect((await harness.rpc.admit(request)).admitted).toBe(true);
    expect((await harness.rpc.admit(request)).admitted).toBe(true);
    expect((await harness.store.view(account, clock.value))?.heldPico).toBe(USD);
  });

  it("lets a hold expire so a crashed edge cannot pin the balance", async () => {
    const account = newAccount();
    await addCredits(harness.db.database, { accountId: account, amountPico: USD, kind: "grant" });
    expect((await harness.rpc.admit(admitRequest(account, USD))).admitted).toBe(true);
    expect((await harness.rpc.admit(admitRequest(account, USD))).admitted).toBe(false);
    clock.advance(HOLD_TTL_MS);
    expect((await harness.rpc.admit(admitRequest(account, USD))).admitted).toBe(true);
  });

  it("releases a hold", async () => {
    const account = newAccount();
    await addCredits(harness.db.database, { accountId: account, amountPico: USD, kind: "grant" });
    const request = admitRequest(account, USD);
    await harness.rpc.admit(request);
    await harness.rpc.release({ holdId: request.holdId, accountId: account });
    expect((await harness.rpc.admit(admitRequest(account, USD))).admitted).toBe(true);
  });

  it("settles a hold to the actual cost, freeing the rest of the worst case", async () => {
    const account = newAccount();
    await addCredits(harness.db.database, { accountId: account, amountPico: USD, kind: "grant" });
    const request = admitRequest(account, USD);
    await harness.rpc.admit(request);
    await harness.rpc.settle({
      holdId: request.holdId,
      accountId: account,
      keyHash: "k",
      actualCostPico: USD / 4n,
    });
    expect((await harness.rpc.admit(admitRequest(account, (USD * 3n) / 4n))).admitted).toBe(true);
    expect((await harness.rpc.admit(admitRequest(account, 1n))).admitted).toBe(false);
  });

  it("admits exactly as many of 200 concurrent requests on a cold view as the balance covers", async () => {
    const account = newAccount();
    const price = 3_333_333n;
    await addCredits(harness.db.database, { accountId: account, amountPico: price * 50n, kind: "grant" });
    const responses = await Promise.all(
      Array.from({ length: 200 }, () => harness.rpc.admit(admitRequest(account, price))),
    );
    expect(responses.filter((response) => response.admitted)).toHaveLength(50);
    expect(await harness.store.view(account, clock.value)).toMatchObject({
      heldPico: price * 50n,
      availablePico: 0n,
    });
  });

  it("rebases an aged view on the ledger, correcting an entry the view never heard of", async () => {
    const account = newAccount();
    await addCredits(harness.db.database, { accountId: account, amountPico: USD, kind: "grant" });
    expect((await harness.rpc.admit(admitRequest(account, 1n))).admitted).toBe(true);
    // A usage debit whose hot-view update was lost (e.g. Redis blipped after the commit).
    await inTransaction(harness.db.database.db, (trx) =>
      insertUsageEntry(trx, {
        accountId: account,
        eventId: `gen-${randomUUID()}`,
        keyHash: "k",
        model: "m",
        isByok: false,
        costPico: USD,
        byokCostPico: 0n,
        createdAt: new Date(),
      }),
    );
    expect((await harness.rpc.admit(admitRequest(account, 1n))).admitted).toBe(true);
    clock.advance(DEFAULT_MAX_VIEW_AGE_MS);
    expect((await harness.rpc.admit(admitRequest(account, 1n))).admitted).toBe(false);
  });

  it("rejects a request without account or with a negative cost as INVALID_ARGUMENT", async () => {
    await expect(harness.rpc.admit(admitRequest("", 1n))).rejects.toMatchObject({
      code: status.INVALID_ARGUMENT,
    });
    await expect(harness.rpc.admit(admitRequest(newAccount(), -1n))).rejects.toMatchObject({
      code: status.INVALID_ARGUMENT,
    });
  });
});

describeWith(["postgres", "redis"], "BillingService.Admit when Redis is down", () => {
  const startDown = async (failOpen: boolean): Promise<Harness> => {
    const down = await connectRedis(serviceUrl("redis"));
    down.disconnect();
    return startHarness({ store: () => redisStore(down), admission: { failOpen } });
  };

  it("answers UNAVAILABLE (the edge returns 503) by default", async () => {
    const harness = await startDown(false);
    try {
      await expect(harness.rpc.admit(admitRequest(newAccount(), 1n))).rejects.toMatchObject({
        code: status.UNAVAILABLE,
      });
      await expect(
        harness.rpc.settle({ holdId: "h", accountId: newAccount(), keyHash: "k", actualCostPico: 1n }),
      ).rejects.toMatchObject({ code: status.UNAVAILABLE });
    } finally {
      await harness.stop();
    }
  });

  it("admits without a hold when ADMISSION_FAIL_OPEN is set", async () => {
    const harness = await startDown(true);
    try {
      expect(await harness.rpc.admit(admitRequest(newAccount(), 1n))).toMatchObject({
        admitted: true,
        holdExpiresUnixMs: 0n,
      });
    } finally {
      await harness.stop();
    }
  });
});

describeWith(["postgres", "redis"], "BillingService.Admit on the embedded in-memory store", () => {
  it("admits and refuses from the same ledger", async () => {
    const harness = await startHarness({ store: () => new MemoryAdmissionStore() });
    try {
      const account = newAccount();
      await addCredits(harness.db.database, { accountId: account, amountPico: USD, kind: "grant" });
      expect((await harness.rpc.admit(admitRequest(account, USD))).admitted).toBe(true);
      expect((await harness.rpc.admit(admitRequest(account, 1n))).admitted).toBe(false);
    } finally {
      await harness.stop();
    }
  });
});
