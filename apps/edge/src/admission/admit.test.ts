import { GatewayError } from "@gw/errors";
import { LimitReset as BillingLimitReset, RefusalCode } from "@gw/proto/billing/v1/billing";
import { LimitReset } from "@gw/proto/keys/v1/keys";
import { describe, expect, it } from "vitest";
import { RecordingBilling, refusal } from "../test/billing.js";
import { testKey } from "../test/principals.js";
import { admit } from "./admit.js";

const input = (billing: RecordingBilling, overrides: Parameters<typeof testKey>[1] = {}) =>
  admit(billing, {
    generationId: "gen-1",
    principal: testKey("acct-1", overrides).principal,
    modelId: "openai/gpt-4o-mini",
    isFreeModel: false,
    worstCasePico: 12_345n,
  });

async function refusedWith(billing: RecordingBilling): Promise<GatewayError> {
  const error = await input(billing).catch((caught: unknown) => caught);
  if (!(error instanceof GatewayError)) throw new Error(`expected a GatewayError, got ${String(error)}`);
  return error;
}

describe("admit", () => {
  it("places one hold keyed by the generation id with the key's cap and window", async () => {
    const billing = new RecordingBilling();
    const hold = await input(billing, { limitPico: 5_000n, limitReset: LimitReset.LIMIT_RESET_MONTHLY });
    expect(hold).toMatchObject({ holdId: "gen-1", accountId: "acct-1" });
    expect(billing.admits).toHaveLength(1);
    expect(billing.admits[0]).toMatchObject({
      holdId: "gen-1",
      accountId: "acct-1",
      modelId: "openai/gpt-4o-mini",
      worstCaseCostPico: 12_345n,
      keyLimit: { limitPico: 5_000n, reset: BillingLimitReset.LIMIT_RESET_MONTHLY, includeByok: false },
    });
  });

  it("passes the model's own request limit from the catalogue", async () => {
    const billing = new RecordingBilling();
    await admit(billing, {
      generationId: "gen-2",
      principal: testKey("acct-1").principal,
      modelId: "openai/o1-pro",
      isFreeModel: false,
      worstCasePico: 1n,
      modelLimit: { requests: 10, intervalSeconds: 60 },
    });
    expect(billing.admits[0]?.modelLimit).toEqual({ requests: 10, intervalSeconds: 60 });
  });

  it("sends no key limit for an uncapped key", async () => {
    const billing = new RecordingBilling();
    await input(billing);
    expect(billing.admits[0]?.keyLimit).toBeUndefined();
  });

  it("turns an account balance refusal into 402 insufficient_credits from the account", async () => {
    const billing = new RecordingBilling();
    billing.refusal = refusal(RefusalCode.REFUSAL_CODE_INSUFFICIENT_CREDITS, { limitSource: "account" });
    const error = await refusedWith(billing);
    expect([error.status, error.type, error.code]).toEqual([402, "payment_required", "insufficient_credits"]);
    expect(error.metadata).toEqual({ limit_source: "account" });
  });

  it("turns a key limit refusal into 402 quota_exceeded from the key", async () => {
    const billing = new RecordingBilling();
    billing.refusal = refusal(RefusalCode.REFUSAL_CODE_QUOTA_EXCEEDED, {
      limitSource: "key",
      message: "key limit reached",
    });
    const error = await refusedWith(billing);
    expect([error.status, error.code, error.message]).toEqual([402, "quota_exceeded", "key limit reached"]);
    expect(error.metadata).toEqual({ limit_source: "key" });
  });

  it("turns a rate refusal into 429 with Retry-After and X-RateLimit-* headers", async () => {
    const billing = new RecordingBilling();
    billing.refusal = refusal(RefusalCode.REFUSAL_CODE_RATE_LIMITED, {
      limitSource: "free_per_minute",
      retryAfterSeconds: 12,
      rateLimit: 20,
      rateRemaining: 0,
      rateResetUnixMs: 1_700_000_060_000n,
    });
    const error = await refusedWith(billing);
    expect([error.status, error.type, error.code]).toEqual([429, "rate_limit_error", "rate_limited"]);
    expect(error.headers).toEqual({
      "Retry-After": "12",
      "X-RateLimit-Limit": "20",
      "X-RateLimit-Remaining": "0",
      "X-RateLimit-Reset": "1700000060000",
    });
  });

  it("fails closed with 503 when billing cannot be reached", async () => {
    const billing = new RecordingBilling();
    billing.unavailable = true;
    const error = await refusedWith(billing);
    expect([error.status, error.type, error.code]).toEqual([
      503,
      "service_unavailable",
      "dependency_unavailable",
    ]);
  });
});
