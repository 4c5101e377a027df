import { randomUUID } from "node:crypto";
import { describeWith } from "@gw/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { addCredits } from "../operator/credits.js";
import { insertUsageEntry, inTransaction } from "../repositories/ledger-write.js";
import { type Harness, startHarness, TestClock, USD } from "../test/harness.js";

// Wednesday 2026-03-11 12:00 UTC: the week began Monday 2026-03-09, the month on 2026-03-01.
const NOW = new Date("2026-03-11T12:00:00.000Z");
const KEY = "b".repeat(64);

describeWith(["postgres", "redis"], "BillingService.GetUsage", () => {
  let harness: Harness;
  const account = `acct_${randomUUID()}`;

  const spend = (
    at: string,
    costPico: bigint,
    options: { key?: string; byok?: bigint; model?: string } = {},
  ) =>
    inTransaction(harness.db.database.db, (trx) =>
      insertUsageEntry(trx, {
        accountId: account,
        eventId: `gen-${randomUUID()}`,
        keyHash: options.key ?? KEY,
        model: options.model ?? "openai/gpt-4o",
        isByok: options.byok !== undefined,
        costPico,
        byokCostPico: options.byok ?? 0n,
        createdAt: new Date(at),
      }),
    );

  beforeAll(async () => {
    harness = await startHarness({ clock: new TestClock(NOW.getTime()) });
    await addCredits(harness.db.database, { accountId: account, amountPico: 10n * USD, kind: "purchase" });
    await addCredits(harness.db.database, { accountId: account, amountPico: USD, kind: "grant" });
    await spend("2026-03-11T00:00:00.000Z", 1n); // today, from its first instant
    await spend("2026-03-10T23:59:59.999Z", 10n); // yesterday: this week and month
    await spend("2026-03-09T00:00:00.000Z", 100n); // Monday 00:00: this week
    await spend("2026-03-08T23:59:59.999Z", 1_000n); // Sunday: last week, this month
    await spend("2026-03-01T00:00:00.000Z", 10_000n); // the 1st 00:00: this month
    await spend("2026-02-28T23:59:59.999Z", 100_000n); // last month
    await spend("2026-03-11T11:00:00.000Z", 0n, { byok: 7n }); // BYOK today
    await spend("2026-02-10T11:00:00.000Z", 0n, { byok: 70n }); // BYOK last month
    await spend("2026-03-11T11:30:00.000Z", 1_000_000n, { key: "c".repeat(64) }); // another key
    await spend("2026-03-11T11:45:00.000Z", 0n, { key: "c".repeat(64), model: "meta/llama:free" });
    await spend("2026-03-10T11:45:00.000Z", 0n, { key: "c".repeat(64), model: "meta/llama:free" });
  });

  afterAll(async () => {
    await harness.stop();
  });

  it("reports a key's spend per UTC window, boundaries included", async () => {
    const usage = await harness.rpc.getUsage({ accountId: account, keyHash: KEY });
    expect(usage).toMatchObject({
      keyUsagePico: 111_111n,
      keyUsageDailyPico: 1n,
      keyUsageWeeklyPico: 111n,
      keyUsageMonthlyPico: 11_111n,
      keyByokUsagePico: 77n,
      keyByokUsageDailyPico: 7n,
      keyByokUsageWeeklyPico: 7n,
      keyByokUsageMonthlyPico: 7n,
    });
  });

  it("reports the account's credits, usage, free-tier state and today's free requests", async () => {
    const usage = await harness.rpc.getUsage({ accountId: account, keyHash: "" });
    expect(usage).toMatchObject({
      totalCreditsPico: 11n * USD,
      totalPurchasedPico: 10n * USD,
      totalUsagePico: 1_111_111n,
      isFreeTier: false,
      keyUsagePico: 0n,
      freeRequestsToday: 1,
    });
  });

  it("does not count a key's spend under another account", async () => {
    const usage = await harness.rpc.getUsage({ accountId: `acct_${randomUUID()}`, keyHash: KEY });
    expect(usage).toMatchObject({
      keyUsagePico: 0n,
      totalCreditsPico: 0n,
      totalUsagePico: 0n,
      isFreeTier: true,
    });
  });
});
