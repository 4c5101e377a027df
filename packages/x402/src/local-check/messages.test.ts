import { describe, expect, it } from "vitest";
import { evmRequirements } from "../testing/evm-payments.js";
import type { PaymentPayload, PaymentRequirements } from "../types.js";
import { verifyPaymentLocally } from "./index.js";

// The generic checks before a scheme's own (index.ts, common.ts): what each refusal says, with the
// client's own values shortened before they go into a message.
const PAYEE = "0x2096000000000000000000000000000000000001";
const requirements = evmRequirements(PAYEE);
const accepted = { ...requirements };
const refusal = async (payload: unknown, required: PaymentRequirements = requirements) => {
  const result = await verifyPaymentLocally(payload as PaymentPayload, required);
  return result.ok ? { reason: "accepted", message: "" } : { reason: result.reason, message: result.message };
};
const payment = (changes: Record<string, unknown> = {}) => ({
  x402Version: 2,
  accepted,
  payload: {},
  ...changes,
});

describe("verifyPaymentLocally's generic refusals", () => {
  it("names a payload that is not an object, and a version that is not 2, quoting it", async () => {
    expect(await refusal("a string")).toEqual({
      reason: "invalid_payload",
      message: "the payment payload is not an object",
    });
    expect(await refusal(payment({ x402Version: 7 }))).toEqual({
      reason: "invalid_x402_version",
      message: 'x402Version "7" is not 2',
    });
    expect((await refusal(payment({ x402Version: undefined }))).message).toBe(
      'x402Version "undefined" is not 2',
    );
    expect((await refusal(payment({ x402Version: "2" }))).message).toBe('x402Version "2" is not 2');
  });

  it("shortens a quoted value past 80 characters to 77 and an ellipsis, and not one of 80", async () => {
    const long = "v".repeat(81);
    expect((await refusal(payment({ x402Version: long }))).message).toBe(
      `x402Version "${"v".repeat(77)}..." is not 2`,
    );
    const eighty = "v".repeat(80);
    expect((await refusal(payment({ x402Version: eighty }))).message).toBe(
      `x402Version "${eighty}" is not 2`,
    );
  });

  it("refuses accepted requirements missing any string field", async () => {
    for (const field of ["scheme", "network", "asset", "payTo", "amount"]) {
      expect([field, await refusal(payment({ accepted: { ...accepted, [field]: 1 } }))]).toEqual([
        field,
        {
          reason: "invalid_payload",
          message: "the payment payload needs `accepted` requirements and a scheme `payload` object",
        },
      ]);
    }
  });

  it("refuses a scheme other than exact on either side, and a network it does not know", async () => {
    expect(await refusal(payment({ accepted: { ...accepted, scheme: "upto" } }))).toEqual({
      reason: "unsupported_scheme",
      message: 'scheme "upto" is not supported; only "exact" is',
    });
    expect((await refusal(payment(), { ...requirements, scheme: "upto" })).reason).toBe("unsupported_scheme");
    expect(await refusal(payment({ accepted: { ...accepted, network: "eip155:1" } }))).toEqual({
      reason: "invalid_network",
      message: 'network "eip155:1" is not the required eip155:84532',
    });
    const cosmos = { ...requirements, network: "cosmos:hub" as PaymentRequirements["network"] };
    expect(await refusal(payment({ accepted: { ...accepted, network: "cosmos:hub" } }), cosmos)).toEqual({
      reason: "invalid_network",
      message: 'network "cosmos:hub" is neither eip155 nor solana',
    });
  });
});
