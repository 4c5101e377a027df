import { randomUUID } from "node:crypto";
import { type AdmitRequest, type AdmitResponse, LimitReset, RefusalCode } from "@gw/proto/billing/v1/billing";
import { describeWith } from "@gw/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { addCredits } from "../operator/credits.js";
import { ledgerSnapshot } from "../repositories/ledger-read.js";
import { eventually } from "../test/eventually.js";
import { type Harness, startHarness, TestClock, USD } from "../test/harness.js";

const MINUTE = 60_000;
const DAY = 86_400_000;
// Wednesday 2026-03-11 00:00:05 UTC: a minute and a day just begun.
const START = Date.UTC(2026, 2, 11, 0, 0, 5);
const KEY = "e".repeat(64);

const newAccount = (): string => `acct_${randomUUID()}`;

function freeRequest(accountId: string): AdmitRequest {
  return {
    holdId: `gen-${randomUUID()}`,
    accountId,
    keyHash: KEY,
    modelId: "meta-llama/llama-3.3-70b-instruct:free",
    isFreeModel: true,
    worstCaseCostPico: 0n,
  };
}

type Rpc = Harness["rpc"];

describeWith(["postgres", "redis"], "Admit limits across two billing replicas sharing Redis", () => {
  const clock = new TestClock(START);
  let harness: Harness;
  let replica: Awaited<ReturnType<Harness["startReplica"]>>;
  // Requests alternate between the replicas, as they would behind two edges.
  let turn = 0;
  const next = (): Rpc => (turn++ % 2 === 0 ? harness.rpc : replica.rpc);
  const admitFree = (account: string): Promise<AdmitResponse> => next().admit(freeRequest(account));

  /** Sends `count` free requests, moving to the next minute whenever the minute's 20 are used. */
  async function useFreeRequests(account: string, count: number): Promise<void> {
    for (let sent = 0; sent < count; sent++) {
      if (sent > 0 && sent % 20 === 0) clock.advance(MINUTE);
      const response = await admitFree(account);
      if (!response.admitted) throw new Error(`request ${sent + 1} refused: ${response.refusal?.message}`);
    }
  }

  beforeAll(async () => {
    harness = await startHarness({ clock });
    replica = await harness.startReplica();
  });

  afterAll(async () => {
    await replica.stop();
    await harness.stop();
  });

  it("admits 20 free requests in a minute and refuses the 21st with 429 details, then the next minute", async () => {
    clock.value = START;
    const account = newAccount();
    await useFreeRequests(account, 20);
    const refused = await admitFree(account);
    expect(refused.admitted).toBe(false);
    expect(refused.refusal).toMatchObject({
      code: RefusalCode.REFUSAL_CODE_RATE_LIMITED,
      limitSource: "free:minute",
      rateLimit: 20,
      rateRemaining: 0,
      retryAfterSeconds: 55,
      rateResetUnixMs: BigInt(START - 5_000 + MINUTE),
    });
    clock.advance(55_000);
    expect((await admitFree(account)).admitted).toBe(true);
  });

  it("admits 50 free requests in a UTC day and refuses the 51st until the next day", async () => {
    clock.value = START;
    const account = newAccount();
    await useFreeRequests(account, 50);
    clock.advance(MINUTE);
    const refused = await admitFree(account);
    expect(refused.refusal).toMatchObject({
      code: RefusalCode.REFUSAL_CODE_RATE_LIMITED,
      limitSource: "free:day",
      rateLimit: 50,
      rateResetUnixMs: BigInt(START - 5_000 + DAY),
    });
    clock.value = START - 5_000 + DAY;
    expect((await admitFree(account)).admitted).toBe(true);
  });

  it("raises the day to 1,000 free requests after 5 USD purchased (grants do not count)", async () => {
    clock.value = START;
    const account = newAccount();
    await addCredits(harness.db.database, { accountId: account, amountPico: 10n * USD, kind: "grant" });
    await useFreeRequests(account, 50);
    clock.advance(MINUTE);
    expect((await admitFree(account)).refusal?.limitSource).toBe("free:day");
    // The operator CLI's purchase reaches both replicas' view through Postgres NOTIFY.
    await addCredits(harness.db.connectAgain(), {
      accountId: account,
      amountPico: 5n * USD,
      kind: "purchase",
      reference: randomUUID(),
    });
    await eventually(async () => expect((await admitFree(account)).admitted).toBe(true));
    clock.advance(MINUTE);
    await useFreeRequests(account, 1_000 - 51);
    clock.advance(MINUTE);
    const refused = await admitFree(account);
    expect(refused.refusal).toMatchObject({ limitSource: "free:day", rateLimit: 1_000 });
  });

  it("refuses a free model with 402 once the balance is negative", async () => {
    clock.value = START;
    const account = newAccount();
    await addCredits(harness.db.database, { accountId: account, amountPico: USD, kind: "grant" });
    expect((await admitFree(account)).admitted).toBe(true);
    harness.publishUsage({ accountId: account, keyHash: KEY, costPico: 2n * USD });
    await eventually(async () =>
      expect((await admitFree(account)).refusal?.code).toBe(RefusalCode.REFUSAL_CODE_INSUFFICIENT_CREDITS),
    );
  });

  it("applies a model's own limit from the catalogue per account, whatever the key", async () => {
    clock.value = START;
    const account = newAccount();
    await addCredits(harness.db.database, { accountId: account, amountPico: USD, kind: "grant" });
    const limited = (keyHash: string): AdmitRequest => ({
      ...freeRequest(account),
      keyHash,
      modelId: "openai/o1-pro",
      isFreeModel: false,
      worstCaseCostPico: 1n,
      modelLimit: { requests: 3, intervalSeconds: 10 },
    });
    for (const key of ["a", "b", "c"])
      expect((await next().admit(limited(key.repeat(64)))).admitted).toBe(true);
    const refused = await next().admit(limited("d".repeat(64)));
    expect(refused.refusal).toMatchObject({
      code: RefusalCode.REFUSAL_CODE_RATE_LIMITED,
      limitSource: "model:openai/o1-pro",
      rateLimit: 3,
      retryAfterSeconds: 5,
    });
    clock.advance(5_000);
    expect((await next().admit(limited("d".repeat(64)))).admitted).toBe(true);
  });

  it("limits a key's spend per UTC window, loading the window's spend from the ledger", async () => {
    clock.value = Date.UTC(2026, 2, 11, 23, 59, 0);
    const account = newAccount();
    await addCredits(harness.db.database, { accountId: account, amountPico: 10n * USD, kind: "grant" });
    const spend = (createdAt: Date, costPico: bigint) =>
      harness.publishUsage({ accountId: account, keyHash: KEY, costPico, createdAt });
    spend(new Date(Date.UTC(2026, 2, 10, 12)), 5n * USD); // yesterday: not in today's window
    spend(new Date(Date.UTC(2026, 2, 11, 12)), USD / 2n); // today
    await eventually(async () =>
      expect((await harness.rpc.getUsage({ accountId: account, keyHash: KEY })).keyUsagePico).toBe(
        5n * USD + USD / 2n,
      ),
    );
    const paid = (worstCaseCostPico: bigint): AdmitRequest => ({
      ...freeRequest(account),
      modelId: "openai/gpt-4o",
      isFreeModel: false,
      worstCaseCostPico,
      keyLimit: { limitPico: USD, reset: LimitReset.LIMIT_RESET_DAILY, includeByok: false },
    });
    expect((await next().admit(paid(USD / 2n))).admitted).toBe(true);
    const over = await next().admit(paid(1n));
    expect(over.refusal).toMatchObject({ code: RefusalCode.REFUSAL_CODE_QUOTA_EXCEEDED, limitSource: "key" });
    clock.value = Date.UTC(2026, 2, 12, 0, 0, 0); // midnight UTC: a new daily window
    expect((await next().admit(paid(USD))).admitted).toBe(true);
    expect((await next().admit(paid(1n))).admitted).toBe(false);
  });

  it("rebuilds a lost view from the ledger: balance and the key's window spend", async () => {
    clock.value = START + DAY / 2;
    const account = newAccount();
    await addCredits(harness.db.database, { accountId: account, amountPico: 10n * USD, kind: "grant" });
    harness.publishUsage({
      accountId: account,
      keyHash: KEY,
      costPico: (USD * 6n) / 10n,
      createdAt: new Date(clock.value),
    });
    await eventually(async () =>
      expect((await harness.rpc.getUsage({ accountId: account, keyHash: KEY })).keyUsageDailyPico).toBe(
        (USD * 6n) / 10n,
      ),
    );
    const paid = (worstCaseCostPico: bigint): AdmitRequest => ({
      ...freeRequest(account),
      modelId: "openai/gpt-4o",
      isFreeModel: false,
      worstCaseCostPico,
      keyLimit: { limitPico: USD, reset: LimitReset.LIMIT_RESET_DAILY, includeByok: false },
    });
    expect((await next().admit(paid(USD / 10n))).admitted).toBe(true);
    // Redis lost the account's keys (failover to an empty replica, eviction, FLUSHDB).
    await harness.store.invalidate(account);
    expect(await harness.store.view(account, clock.value)).toBeUndefined();
    expect((await next().admit(paid(USD / 2n))).refusal?.code).toBe(RefusalCode.REFUSAL_CODE_QUOTA_EXCEEDED);
    expect((await next().admit(paid((USD * 4n) / 10n))).admitted).toBe(true);
    expect(await harness.store.view(account, clock.value)).toMatchObject({
      balancePico: 10n * USD - (USD * 6n) / 10n,
      heldPico: (USD * 4n) / 10n,
    });
  });

  it("rebuilds lost free-tier counters from the ledger's :free requests of the day", async () => {
    clock.value = START + 2 * 3_600_000;
    const account = newAccount();
    const servedAt = new Date(START + 3_600_000);
    for (let index = 0; index < 50; index++) {
      harness.publishUsage({
        accountId: account,
        keyHash: KEY,
        costPico: 0n,
        model: freeRequest(account).modelId,
        createdAt: servedAt,
      });
    }
    await eventually(async () =>
      expect((await harness.rpc.getUsage({ accountId: account, keyHash: "" })).freeRequestsToday).toBe(50),
    );
    // No view and no counters in Redis (as after losing it): the first admit rebuilds both.
    expect(await harness.store.view(account, clock.value)).toBeUndefined();
    expect((await admitFree(account)).refusal).toMatchObject({ limitSource: "free:day", rateLimit: 50 });
  });

  it("counts BYOK upstream costs towards a key's limit when the key includes them", async () => {
    clock.value = START + DAY / 2;
    const account = newAccount();
    await addCredits(harness.db.database, { accountId: account, amountPico: 10n * USD, kind: "grant" });
    // Events as the edge builds them for BYOK requests: the catalogue price, fee 0 (the default).
    const byok = { accountId: account, keyHash: KEY, isByok: true, createdAt: new Date(clock.value) };
    harness.publishUsage({ ...byok, costPico: (USD * 3n) / 10n, promptCostPico: USD / 10n });
    await eventually(async () =>
      expect((await harness.rpc.getUsage({ accountId: account, keyHash: KEY })).keyByokUsageDailyPico).toBe(
        (USD * 3n) / 10n,
      ),
    );
    const paid = (worstCaseCostPico: bigint, includeByok: boolean): AdmitRequest => ({
      ...freeRequest(account),
      modelId: "openai/gpt-4o",
      isFreeModel: false,
      worstCaseCostPico,
      keyLimit: { limitPico: USD, reset: LimitReset.LIMIT_RESET_DAILY, includeByok },
    });
    expect((await next().admit(paid((USD * 8n) / 10n, true))).refusal?.code).toBe(
      RefusalCode.REFUSAL_CODE_QUOTA_EXCEEDED,
    );
    expect((await next().admit(paid((USD * 7n) / 10n, true))).admitted).toBe(true);
    // A BYOK request settled live: its upstream cost reaches the window with the usage event.
    harness.publishUsage({ ...byok, costPico: USD / 10n });
    await eventually(async () => {
      const view = await harness.store.view(account, clock.value);
      const window = Object.entries(view?.keyUsed ?? {}).find(([name]) => name.endsWith("b"));
      expect(window?.[1]).toBe(USD + USD / 10n);
    });
    // Without include_byok_in_limit, only credits spent count (none here).
    expect((await next().admit(paid(USD, false))).admitted).toBe(true);
    const usage = await harness.rpc.getUsage({ accountId: account, keyHash: KEY });
    expect(usage).toMatchObject({ keyUsageDailyPico: 0n, keyByokUsageDailyPico: (USD * 4n) / 10n });
  });

  it("charges a BYOK request only the fee and counts its upstream price once towards the key's limit", async () => {
    clock.value = START + DAY / 2;
    const account = newAccount();
    await addCredits(harness.db.database, { accountId: account, amountPico: 10n * USD, kind: "grant" });
    const price = (USD * 4n) / 10n;
    // BYOK_FEE_PERCENT=10 at the edge: 0.04 USD of credits, 0.40 USD paid to the provider directly.
    harness.publishUsage(
      { accountId: account, keyHash: KEY, isByok: true, costPico: price, createdAt: new Date(clock.value) },
      undefined,
      { byokFeePercent: 10 },
    );
    await eventually(async () =>
      expect(await harness.rpc.getUsage({ accountId: account, keyHash: KEY })).toMatchObject({
        keyUsageDailyPico: price / 10n,
        keyByokUsageDailyPico: price,
      }),
    );
    const snapshot = await ledgerSnapshot(harness.db.database.db, account);
    expect(snapshot.balancePico).toBe(10n * USD - price / 10n);
    const paid = (worstCaseCostPico: bigint, includeByok: boolean): AdmitRequest => ({
      ...freeRequest(account),
      modelId: "openai/gpt-4o",
      isFreeModel: false,
      worstCaseCostPico,
      keyLimit: { limitPico: USD, reset: LimitReset.LIMIT_RESET_DAILY, includeByok },
    });
    // Counted in the limit: fee 0.04 + upstream 0.40 = 0.44 (counting the price twice would be 0.84).
    const room = USD - price - price / 10n;
    expect((await next().admit(paid(room + 1n, true))).refusal?.code).toBe(
      RefusalCode.REFUSAL_CODE_QUOTA_EXCEEDED,
    );
    expect((await next().admit(paid(room, true))).admitted).toBe(true);
    // Without include_byok_in_limit only the fee counts.
    expect((await next().admit(paid(USD - price / 10n, false))).admitted).toBe(true);
  });
});
