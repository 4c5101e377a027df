import { describe, expect, it } from "vitest";
import { decodeEnvelope, decodePayload, PAYMENT_SETTLED_V1 } from "./envelope.js";
import { encodePaymentSettled, paymentReference, usdcAtomicToPico } from "./payment-event.js";

const payment = {
  network: "eip155:84532",
  payer: "0xAbCdEf0123456789aBcDeF0123456789AbCdEf01",
  nonce: `0xAA${"0".repeat(62)}`,
  accountId: "acct_1",
  walletAccountId: "eip155:84532:0xAbCdEf0123456789aBcDeF0123456789AbCdEf01",
  asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
  payTo: "0x2096000000000000000000000000000000000001",
  amountAtomic: "1000000",
  transaction: "0xfeed",
  x402Version: 2,
  settledAt: new Date("2026-11-23T12:00:00Z"),
};

describe("payment.settled v1", () => {
  it("round-trips with event id = reference and key = account id", () => {
    const encoded = encodePaymentSettled(payment);
    const envelope = decodeEnvelope(encoded.value);
    expect(encoded.key).toBe("acct_1");
    expect(envelope.eventId).toBe(paymentReference(payment.network, payment.payer, payment.nonce));
    const decoded = decodePayload(PAYMENT_SETTLED_V1, envelope);
    expect(decoded?.amountPico).toBe(1_000_000_000_000n);
    expect(decoded?.payer).toBe(payment.payer);
    expect(decoded?.settledAt).toEqual(payment.settledAt);
  });

  it("names one EVM payment the same whatever the address's and nonce's letter case", () => {
    expect(paymentReference("eip155:1", "0xABC", "0xDEF")).toBe(
      paymentReference("eip155:1", "0xabc", "0xdef"),
    );
    // base58 is case-sensitive: Solana keys keep their spelling.
    expect(paymentReference("solana:x", "AbC", "sig")).not.toBe(paymentReference("solana:x", "abc", "sig"));
  });

  it("converts atomic USDC to pico-dollars exactly and refuses non-integers", () => {
    expect(usdcAtomicToPico("1")).toBe(1_000_000n);
    expect(usdcAtomicToPico("10000")).toBe(10_000_000_000n);
    for (const bad of ["-1", "1.5", "", "1e6", " 1"]) expect(() => usdcAtomicToPico(bad)).toThrow(RangeError);
  });
});
