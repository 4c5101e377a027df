import { isGatewayError } from "@gw/errors";
import { RefusalCode } from "@gw/proto/billing/v1/billing";
import { LimitReset } from "@gw/proto/keys/v1/keys";
import { describe, expect, it } from "vitest";
import type { PlannedAttempt } from "../planning/plan.js";
import { EMPTY_USAGE, RecordingBilling, refusal } from "../test/billing.js";
import { testEndpoint, testModel } from "../test/catalog.js";
import { testKey } from "../test/principals.js";
import { admitPlanned } from "./admit-planned.js";

// testEndpoint prices: 1 USD per million prompt tokens (10^6 pico a token), 2 USD per million output
// tokens (2·10^6 pico), at most 1,000 output tokens.
const PROMPT_PICO = 1_000_000n;
const OUTPUT_PICO = 2_000_000n;
const worstCase = { promptTokens: 10, maxTokens: 1_000, choices: 1, imageCount: 0 };
const attempt = (): PlannedAttempt => ({
  model: testModel("openai/gpt-4o-mini", [testEndpoint("openai")]),
  endpoint: testEndpoint("openai"),
});

async function refused(
  billing: RecordingBilling,
  principal = testKey("acct-1").principal,
  asked: typeof worstCase = worstCase,
) {
  try {
    await admitPlanned(billing, {
      generationId: "gen-1",
      principal,
      requestedModel: "x",
      attempts: [attempt()],
      worstCase: asked,
    });
  } catch (error) {
    if (isGatewayError(error)) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("a 402 says how many tokens the budget affords", () => {
  it("account: the balance after the prompt, at the output price, in OpenRouter's words and in metadata", async () => {
    const billing = new RecordingBilling();
    const principal = testKey("acct-1").principal;
    billing.refusal = refusal(RefusalCode.REFUSAL_CODE_INSUFFICIENT_CREDITS, { limitSource: "account" });
    billing.usageByKey.set(principal.keyHash, {
      ...EMPTY_USAGE,
      totalCreditsPico: 10n * PROMPT_PICO + 300n * OUTPUT_PICO + OUTPUT_PICO / 2n + 5n,
      totalUsagePico: 5n,
    });
    const error = await refused(billing, principal);
    expect(error.status).toBe(402);
    expect(error.code).toBe("insufficient_credits");
    expect(error.message).toBe(
      "This request requires more credits, or fewer max_tokens. You requested up to 1000 tokens, but can only afford 300. To increase, add credits.",
    );
    expect(error.metadata).toEqual({
      limit_source: "account",
      requested_tokens: 1_000,
      affordable_tokens: 300,
    });
  });

  it("key: what is left of the cap in the key's window (daily here), not the account's balance", async () => {
    const billing = new RecordingBilling();
    const principal = testKey("acct-1", {
      limitPico: 10n * PROMPT_PICO + 1_000n * OUTPUT_PICO,
      limitReset: LimitReset.LIMIT_RESET_DAILY,
    }).principal;
    billing.refusal = refusal(RefusalCode.REFUSAL_CODE_QUOTA_EXCEEDED, { limitSource: "key" });
    billing.usageByKey.set(principal.keyHash, {
      ...EMPTY_USAGE,
      totalCreditsPico: 10n ** 15n,
      keyUsagePico: 10n ** 12n,
      keyUsageDailyPico: 800n * OUTPUT_PICO,
    });
    const error = await refused(billing, principal);
    expect(error.code).toBe("quota_exceeded");
    expect(error.message).toContain(
      "You requested up to 1000 tokens, but can only afford 200. To increase, raise",
    );
    expect(error.metadata).toMatchObject({ limit_source: "key", affordable_tokens: 200 });
  });

  it("keeps billing's own refusal at a zero balance, and when usage cannot be read", async () => {
    const billing = new RecordingBilling();
    billing.refusal = refusal(RefusalCode.REFUSAL_CODE_INSUFFICIENT_CREDITS, { limitSource: "account" });
    const broke = await refused(billing);
    expect(broke.message).toBe("insufficient credits; add credits to continue");
    expect(broke.metadata).toEqual({ limit_source: "account" });
    const principal = testKey("acct-1").principal;
    billing.usageByKey.set(principal.keyHash, { ...EMPTY_USAGE, totalCreditsPico: 10n ** 9n });
    billing.getUsage = async () => {
      throw new Error("billing down");
    };
    expect((await refused(billing, principal)).message).toBe("insufficient credits; add credits to continue");
  });

  /** A key capped at the prompt plus 1,000 output tokens, with each window's spend set apart. */
  const cappedKey = (limitReset: LimitReset, includeByokInLimit = false) =>
    testKey("acct-1", {
      limitPico: 10n * PROMPT_PICO + 1_000n * OUTPUT_PICO,
      limitReset,
      includeByokInLimit,
    }).principal;
  const windows = {
    ...EMPTY_USAGE,
    totalCreditsPico: 10n ** 15n,
    keyUsagePico: 900n * OUTPUT_PICO,
    keyUsageDailyPico: 100n * OUTPUT_PICO,
    keyUsageWeeklyPico: 600n * OUTPUT_PICO,
    keyUsageMonthlyPico: 700n * OUTPUT_PICO,
    keyByokUsageMonthlyPico: 200n * OUTPUT_PICO,
  };
  const affordedFor = async (principal: ReturnType<typeof cappedKey>) => {
    const billing = new RecordingBilling();
    billing.refusal = refusal(RefusalCode.REFUSAL_CODE_QUOTA_EXCEEDED, { limitSource: "key" });
    billing.usageByKey.set(principal.keyHash, windows);
    return (await refused(billing, principal)).metadata?.affordable_tokens;
  };

  it("key: reads the spend of the key's own window: weekly, monthly, or all time without a reset", async () => {
    expect(await affordedFor(cappedKey(LimitReset.LIMIT_RESET_WEEKLY))).toBe(400);
    expect(await affordedFor(cappedKey(LimitReset.LIMIT_RESET_MONTHLY))).toBe(300);
    expect(await affordedFor(cappedKey(LimitReset.LIMIT_RESET_UNSPECIFIED))).toBe(100);
  });

  it("key: counts the window's BYOK spend only when the key includes it in its limit", async () => {
    expect(await affordedFor(cappedKey(LimitReset.LIMIT_RESET_MONTHLY, true))).toBe(100);
  });

  it("key without a limit, or a refusal that is not about money: billing's refusal as it was", async () => {
    const billing = new RecordingBilling();
    const unlimited = testKey("acct-1").principal;
    billing.refusal = refusal(RefusalCode.REFUSAL_CODE_QUOTA_EXCEEDED, { limitSource: "key" });
    billing.usageByKey.set(unlimited.keyHash, windows);
    expect((await refused(billing, unlimited)).metadata).toEqual({ limit_source: "key" });
    billing.refusal = refusal(RefusalCode.REFUSAL_CODE_RATE_LIMITED, { limitSource: "account" });
    const limited = await refused(billing, unlimited);
    expect(limited.status).toBe(429);
    expect(limited.metadata?.affordable_tokens).toBeUndefined();
  });

  it("divides what the budget buys among the choices asked for", async () => {
    const billing = new RecordingBilling();
    const principal = testKey("acct-1").principal;
    billing.refusal = refusal(RefusalCode.REFUSAL_CODE_INSUFFICIENT_CREDITS, { limitSource: "account" });
    billing.usageByKey.set(principal.keyHash, {
      ...EMPTY_USAGE,
      totalCreditsPico: 10n * PROMPT_PICO + 600n * OUTPUT_PICO,
    });
    const error = await refused(billing, principal, { ...worstCase, choices: 2 });
    expect(error.metadata).toMatchObject({ requested_tokens: 1_000, affordable_tokens: 300 });
  });

  it("keeps billing's refusal when the budget affords every token asked for (the refusal was not about them)", async () => {
    const billing = new RecordingBilling();
    const principal = testKey("acct-1").principal;
    billing.refusal = refusal(RefusalCode.REFUSAL_CODE_INSUFFICIENT_CREDITS, { limitSource: "account" });
    billing.usageByKey.set(principal.keyHash, { ...EMPTY_USAGE, totalCreditsPico: 10n ** 15n });
    const error = await refused(billing, principal);
    expect(error.message).toBe("insufficient credits; add credits to continue");
    expect(error.metadata).toEqual({ limit_source: "account" });
  });
});
