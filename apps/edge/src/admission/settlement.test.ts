import { memoryLogger, silentLogger } from "@gw/logger";
import { LimitReset as BillingLimitReset, RefusalCode } from "@gw/proto/billing/v1/billing";
import { LimitReset } from "@gw/proto/keys/v1/keys";
import { describe, expect, it } from "vitest";
import { RecordingBilling, refusal } from "../test/billing.js";
import { testKey } from "../test/principals.js";
import { Admission, leaseIdOf } from "./admission.js";
import { keyLimitOf, refusalError } from "./admit.js";

// How a request's spend ends: settled to its actual cost, released when nothing was served and nothing
// is owed, and a failed settle falls back to a release (billing reconciles from the usage event).

const principal = testKey("acct-1").principal;
const hold = { holdId: "gen-1", accountId: "acct-1", keyHash: principal.keyHash };

function setup(leases = false) {
  const billing = new RecordingBilling();
  billing.leaseGrantPico = 1_000_000n;
  const admission = new Admission({ billing, logger: silentLogger(), now: Date.now, leases });
  return { billing, admission };
}

describe("Admission.finish on a request's own hold", () => {
  it("settles a served request at its actual cost", async () => {
    const { billing, admission } = setup();
    admission.finish(hold, 1_234n, true);
    await admission.drain();
    expect(billing.settles).toEqual([{ ...hold, actualCostPico: 1_234n }]);
    expect(billing.releases).toEqual([]);
  });

  it("settles an unserved request that still cost something (a stream cut short)", async () => {
    const { billing, admission } = setup();
    admission.finish(hold, 5n, false);
    await admission.drain();
    expect(billing.settles).toEqual([{ ...hold, actualCostPico: 5n }]);
  });

  it("settles a served request that cost nothing, and releases an unserved one that cost nothing", async () => {
    const { billing, admission } = setup();
    admission.finish(hold, 0n, true);
    admission.finish({ ...hold, holdId: "gen-2" }, 0n, false);
    await admission.drain();
    expect(billing.settles).toEqual([{ ...hold, actualCostPico: 0n }]);
    expect(billing.releases).toEqual([{ holdId: "gen-2", accountId: "acct-1" }]);
  });

  it("releases the hold when the settle fails, and swallows a failed release", async () => {
    const { billing, admission } = setup();
    const settle = billing.settle.bind(billing);
    billing.settle = async () => {
      billing.settle = settle;
      throw new Error("settle lost");
    };
    admission.finish(hold, 9n, true);
    await admission.drain();
    expect(billing.releases).toEqual([{ holdId: "gen-1", accountId: "acct-1" }]);

    billing.unavailable = true;
    admission.finish(hold, 0n, false);
    await expect(admission.drain()).resolves.toBeUndefined();
  });

  it("logs a failed settle and a failed release, naming the generation and the error", async () => {
    const billing = new RecordingBilling();
    const { logger, lines } = memoryLogger("warn");
    const admission = new Admission({ billing, logger, now: Date.now, leases: false });
    billing.unavailable = true;
    admission.finish(hold, 9n, true);
    await admission.drain();
    const warnings = lines().map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(warnings).toEqual([
      expect.objectContaining({ msg: "settle failed; releasing the hold", generationId: "gen-1" }),
      expect.objectContaining({ msg: "release failed; the hold will expire", generationId: "gen-1" }),
    ]);
    for (const warning of warnings) expect(warning.err).toMatchObject({ message: "connect ECONNREFUSED" });
  });

  it("drain waits for every settlement under way", async () => {
    const { billing, admission } = setup();
    let release: () => void = () => {};
    const settle = billing.settle.bind(billing);
    billing.settle = (request) => new Promise((resolve) => (release = () => resolve(settle(request))));
    admission.finish(hold, 3n, true);
    let drained = false;
    const draining = admission.drain().then(() => {
      drained = true;
    });
    // Every queued callback has run (a macrotask later), and the settle is still open: drain waits.
    await new Promise((resolve) => setImmediate(resolve));
    expect(drained).toBe(false);
    release();
    await draining;
    expect(drained).toBe(true);
    expect(billing.settles).toHaveLength(1);
  });
});

describe("Admission under a budget lease", () => {
  it("finishes a leased request locally and names its lease; close returns the lease with the cost", async () => {
    const { billing, admission } = setup(true);
    const leased = await admission.leases.reserve(principal, 1_000n);
    expect(leased).toBeDefined();
    if (!leased) return;
    expect(leaseIdOf(leased)).toBe(leased.lease.id);
    expect(leaseIdOf(hold)).toBeUndefined();
    admission.finish(leased, 400n, true);
    await admission.close();
    expect(billing.settles).toEqual([]);
    expect(billing.leaseReturns).toEqual([
      expect.objectContaining({ leaseId: leased.lease.id, spentPico: 400n }),
    ]);
  });

  it("admit() always places a hold of its own, never a lease", async () => {
    const { billing, admission } = setup(true);
    const own = await admission.admit({
      generationId: "gen-9",
      principal,
      modelId: "openai/gpt-4o",
      isFreeModel: false,
      worstCasePico: 10n,
    });
    expect(own).toEqual({ holdId: "gen-9", accountId: principal.accountId, keyHash: principal.keyHash });
    expect(billing.admits).toHaveLength(1);
    expect(billing.leaseAcquires).toHaveLength(0);
  });
});

describe("refusals and key limits as the client sees them", () => {
  it("falls back to the spec's messages and sources when billing sends none", () => {
    const credits = refusalError(refusal(RefusalCode.REFUSAL_CODE_INSUFFICIENT_CREDITS));
    expect(credits).toMatchObject({
      status: 402,
      code: "insufficient_credits",
      message: "insufficient credits; add credits to continue",
      metadata: { limit_source: "account" },
    });
    const quota = refusalError(refusal(RefusalCode.REFUSAL_CODE_QUOTA_EXCEEDED));
    expect(quota).toMatchObject({
      status: 402,
      code: "quota_exceeded",
      message: "this key's spending limit is used up",
      metadata: { limit_source: "key" },
    });
    const rate = refusalError(refusal(RefusalCode.REFUSAL_CODE_RATE_LIMITED, { limitSource: "free:day" }));
    expect(rate).toMatchObject({ status: 429, message: "rate limit exceeded; retry later" });
    expect(rate.headers["Retry-After"]).toBe("1");
    for (const unknown of [undefined, refusal(RefusalCode.REFUSAL_CODE_UNSPECIFIED)]) {
      expect(refusalError(unknown)).toMatchObject({
        status: 402,
        code: "admission_refused",
        message: "the request was not admitted",
        metadata: { limit_source: "account" },
      });
    }
    const named = refusal(RefusalCode.REFUSAL_CODE_UNSPECIFIED, { message: "no", limitSource: "key" });
    expect(refusalError(named)).toMatchObject({ message: "no", metadata: { limit_source: "key" } });
  });

  it("keeps billing's message and source when it sends them", () => {
    const credits = refusal(RefusalCode.REFUSAL_CODE_INSUFFICIENT_CREDITS, {
      message: "m",
      limitSource: "s",
    });
    expect(refusalError(credits)).toMatchObject({ message: "m", metadata: { limit_source: "s" } });
    const quota = refusal(RefusalCode.REFUSAL_CODE_QUOTA_EXCEEDED, { message: "q", limitSource: "k2" });
    expect(refusalError(quota)).toMatchObject({ message: "q", metadata: { limit_source: "k2" } });
  });

  it("maps each key reset to billing's, and sends none for an uncapped key", () => {
    expect(keyLimitOf(principal)).toBeUndefined();
    const pairs: Array<[LimitReset, BillingLimitReset]> = [
      [LimitReset.LIMIT_RESET_DAILY, BillingLimitReset.LIMIT_RESET_DAILY],
      [LimitReset.LIMIT_RESET_WEEKLY, BillingLimitReset.LIMIT_RESET_WEEKLY],
      [LimitReset.LIMIT_RESET_MONTHLY, BillingLimitReset.LIMIT_RESET_MONTHLY],
    ];
    for (const [reset, billingReset] of pairs) {
      const capped = testKey("acct-1", {
        limitPico: 7n,
        limitReset: reset,
        includeByokInLimit: true,
      }).principal;
      expect(keyLimitOf(capped)).toEqual({ limitPico: 7n, reset: billingReset, includeByok: true });
    }
    const zero = testKey("acct-1", { limitPico: 0n, limitReset: LimitReset.UNRECOGNIZED }).principal;
    expect(keyLimitOf(zero)).toEqual({
      limitPico: 0n,
      reset: BillingLimitReset.LIMIT_RESET_UNSPECIFIED,
      includeByok: false,
    });
  });
});
