import { randomUUID } from "node:crypto";
import { type AdmitRequest, RefusalCode } from "@gw/proto/billing/v1/billing";
import { describeWith } from "@gw/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { addCredits } from "../operator/credits.js";
import { type Harness, startHarness, TestClock, USD } from "../test/harness.js";

const CEILING = 32;
// A minute's first millisecond, so a case's requests all fall in one window however long it runs.
const MINUTE_START = Math.floor(Date.now() / 60_000) * 60_000 + 60_000;

function paid(accountId: string, modelId = "openai/gpt-4o", isFreeModel = false): AdmitRequest {
  return {
    holdId: `gen-${randomUUID()}`,
    accountId,
    keyHash: "k".repeat(64),
    modelId,
    isFreeModel,
    worstCaseCostPico: 1n,
  };
}

describeWith(["postgres", "redis"], "the paid-model request ceiling in BillingService (Redis)", () => {
  let harness: Harness;
  const clock = new TestClock(MINUTE_START + 10_000);

  beforeAll(async () => {
    harness = await startHarness({ clock, admission: { paidRequestsPerMinute: CEILING } });
  });

  afterAll(async () => {
    await harness?.stop();
  });

  const funded = async (): Promise<string> => {
    const accountId = `acct_${randomUUID()}`;
    await addCredits(harness.db.database, { accountId, amountPico: USD, kind: "purchase" });
    return accountId;
  };

  it("admits the ceiling's worth of paid requests in a minute, then 429s with the minute's reset", async () => {
    const account = await funded();
    const answers = await Promise.all(
      Array.from({ length: CEILING + 8 }, () => harness.rpc.admit(paid(account))),
    );
    expect(answers.filter((answer) => answer.admitted)).toHaveLength(CEILING);
    const refusal = answers.find((answer) => !answer.admitted)?.refusal;
    expect(refusal).toMatchObject({
      code: RefusalCode.REFUSAL_CODE_RATE_LIMITED,
      limitSource: "paid:minute",
      rateLimit: CEILING,
      rateRemaining: 0,
      rateResetUnixMs: BigInt(MINUTE_START + 60_000),
      retryAfterSeconds: 50,
    });
    // Free models are not paid-model requests: the free tier's own windows apply, not this one.
    expect(
      (await harness.rpc.admit(paid(account, "meta-llama/llama-3.3-70b-instruct:free", true))).admitted,
    ).toBe(true);
    // Another account has its own ceiling.
    expect((await harness.rpc.admit(paid(await funded()))).admitted).toBe(true);
    clock.advance(60_000);
    expect((await harness.rpc.admit(paid(account))).admitted).toBe(true);
    clock.value = MINUTE_START + 10_000;
  });

  it("counts a budget lease's slice (1/16 of the ceiling) up front, and ends its use with the minute", async () => {
    const account = await funded();
    const lease = await harness.rpc.acquireLease({
      leaseId: `lease-${randomUUID()}`,
      accountId: account,
      keyHash: "k".repeat(64),
      keyLimit: undefined,
      requestedPico: 1_000n,
      minPico: 1n,
      requestedRequests: 0,
    });
    expect(lease).toMatchObject({ granted: true, grantedRequests: CEILING / 16 });
    expect(Number(lease.useUntilUnixMs)).toBeLessThanOrEqual(MINUTE_START + 60_000);
    const answers = await Promise.all(
      Array.from({ length: CEILING }, () => harness.rpc.admit(paid(account))),
    );
    expect(answers.filter((answer) => answer.admitted)).toHaveLength(CEILING - CEILING / 16);
  });
});
