import { describe, expect, it } from "vitest";
import { facilitatorRefusal, localRefusal } from "./refusal.js";

const offer = { amount: "1000000", asset: "0xUSDC", network: "eip155:84532" };

// What @x402/evm 2.27's facilitator sends for an unfunded payer: its own code and viem's whole
// simulation error as invalidMessage (contract address, function, arguments and the token's revert).
const VIEM_REVERT = `The contract function "transferWithAuthorization" reverted with the following reason:
ERC20: transfer amount exceeds balance

Contract Call:
  address:   0x036CbD53842c5426634e7929541eC2318f3dCF7e
  function:  transferWithAuthorization(address from, address to, uint256 value, ...)`;

describe("facilitatorRefusal: x402's reason code and the gateway's message, never the facilitator's text", () => {
  it("an unfunded payer (@x402/evm's own code and raw revert): insufficient_funds and what to do", () => {
    const refusal = facilitatorRefusal("invalid_exact_evm_insufficient_balance", VIEM_REVERT, offer, "x");
    expect(refusal.reason).toBe("insufficient_funds");
    expect(refusal.message).toContain("does not hold the 1000000 atomic units of 0xUSDC");
    expect(refusal.message).not.toMatch(/revert|ERC20|0x036C|transferWithAuthorization/);
  });

  it.each([
    ["ERC20: transfer amount exceeds balance", "insufficient_funds"],
    ["FiatTokenV2: insufficient funds", "insufficient_funds"],
    ["execution reverted: FiatTokenV2: invalid signature", "invalid_exact_evm_payload_signature"],
    ["ECRecover: invalid signature 's' value", "invalid_exact_evm_payload_signature"],
    ["FiatTokenV2: authorization is used or canceled", "invalid_exact_evm_nonce_already_used"],
    ["FiatTokenV2: authorization is expired", "invalid_exact_evm_payload_authorization_valid_before"],
    ["FiatTokenV2: authorization is not yet valid", "invalid_exact_evm_payload_authorization_valid_after"],
  ])("a generic code with the revert %j: %s", (revert, reason) => {
    const refusal = facilitatorRefusal(
      "invalid_exact_evm_transaction_simulation_failed",
      `The contract function "transferWithAuthorization" reverted with the following reason:\n${revert}`,
      offer,
      "invalid_payment",
    );
    expect(refusal.reason).toBe(reason);
    expect(refusal.message).not.toContain(revert);
    expect(refusal.message).not.toMatch(/revert/);
  });

  it("a settle failure with no code and a revert: the revert's code", () => {
    expect(
      facilitatorRefusal(undefined, "FiatTokenV2: insufficient funds", offer, "settlement_failed").reason,
    ).toBe("insufficient_funds");
  });

  it("the library's signature name becomes the specification's", () => {
    expect(facilitatorRefusal("invalid_exact_evm_signature", undefined, offer, "x")).toMatchObject({
      reason: "invalid_exact_evm_payload_signature",
      message: expect.stringContaining("signature does not verify"),
    });
  });

  it("an unknown code with free text: the code, and a message that does not repeat the text", () => {
    const refusal = facilitatorRefusal("some_new_reason", "internal: RPC node 10.0.0.3 said no", offer, "x");
    expect(refusal).toEqual({
      reason: "some_new_reason",
      message: "the payment facilitator refused the payment (some_new_reason)",
    });
  });

  it("no code and no recognisable text: the fallback", () => {
    expect(facilitatorRefusal(undefined, undefined, offer, "settlement_failed").reason).toBe(
      "settlement_failed",
    );
  });
});

describe("localRefusal", () => {
  it("keeps the local check's own message and takes the specification's code", () => {
    expect(localRefusal("invalid_exact_evm_recipient_mismatch", "paid to someone else")).toEqual({
      reason: "invalid_exact_evm_payload_recipient_mismatch",
      message: "paid to someone else",
    });
    expect(localRefusal("invalid_network", "wrong chain").reason).toBe("invalid_network");
  });
});
