import type { Facilitator } from "@gw/x402";
import { describe, expect, it } from "vitest";
import { buildOffer } from "./offers.js";
import { facilitatorRefusal } from "./refusal.js";
import { paymentNetworks, usdToAtomicUsdc, type X402Settings } from "./settings.js";

// What a client reads off an offer and a refusal, field by field, beyond offers.test.ts and
// refusal.test.ts: the v1 body's remaining fields, the sign-in challenge's statement, resources and
// schema (what a wallet fills in), and the message each refusal code gives the payer.
const PAY_TO = "0x2096000000000000000000000000000000000001";
const notCalled = () => Promise.reject(new Error("offers never call the facilitator"));
const facilitator: Facilitator = { verify: notCalled, settle: notCalled, getSupported: notCalled };
const settings: X402Settings = {
  facilitator,
  networks: paymentNetworks({
    facilitatorUrl: "http://127.0.0.1:9",
    networks: ["eip155:84532"],
    payToEvm: PAY_TO,
    payToSolana: "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM",
    topupAmountsUsd: ["1"],
    assets: {},
    publicBaseUrl: "https://gw.example:8443",
  }),
  amountsAtomic: ["1"].map(usdToAtomicUsdc),
  maxTimeoutSeconds: 300,
  publicBaseUrl: "https://gw.example:8443",
};
const context = {
  resourceUrl: "https://gw.example/v1/chat/completions",
  origin: new URL("https://gw.example:8443"),
  feePayers: new Map<string, string>(),
  now: Date.parse("2026-11-23T12:00:00Z"),
  error: "insufficient_credits",
};
const FIELDS = ["domain", "address", "uri", "version", "chainId", "type", "nonce", "issuedAt", "signature"];

describe("the offer's forms", () => {
  const offer = buildOffer(settings, context);

  it("v1's body offer has x402 v1's fields", () => {
    expect(offer.v1.accepts[0]).toMatchObject({
      description: expect.stringMatching(/\S/),
      mimeType: "application/json",
      outputSchema: {},
      maxTimeoutSeconds: 300,
    });
  });

  it("the sign-in challenge states what is signed, for which resource, and the schema of the answer", () => {
    const siwx = (offer.v2.extensions as Record<string, { info: Record<string, unknown>; schema: unknown }>)[
      "sign-in-with-x"
    ];
    expect(siwx?.info.statement).toBe("Sign in to the model gateway with your wallet");
    expect(siwx?.info.resources).toEqual(["https://gw.example:8443/v1/x402/auth"]);
    expect(siwx?.schema).toEqual({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      required: FIELDS,
      properties: Object.fromEntries(FIELDS.map((field) => [field, { type: "string" }])),
    });
  });
});

describe("the payer's message for each refusal code", () => {
  const refused = {
    amount: "1000000",
    asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
    network: "eip155:84532",
  };
  const messageOf = (reason: string | undefined, detail?: string) =>
    facilitatorRefusal(reason, detail, refused, "invalid_payment");

  it.each([
    [
      "insufficient_funds",
      "the paying wallet does not hold the 1000000 atomic units of 0x036CbD53842c5426634e7929541eC2318f3dCF7e this payment needs on eip155:84532: fund it, or pay from another wallet",
    ],
    [
      "invalid_exact_evm_payload_signature",
      "the payment's signature does not verify for the paying wallet: sign the offer again with the wallet that pays",
    ],
    [
      "invalid_exact_evm_payload_recipient_mismatch",
      "the payment is not made out to the offer's payTo address: sign the offer as given",
    ],
    [
      "invalid_exact_evm_nonce_already_used",
      "this authorization was already used: sign a new payment (a new nonce) for this request",
    ],
    [
      "invalid_exact_evm_payload_authorization_valid_before",
      "the authorization has expired: sign a new payment",
    ],
    [
      "invalid_exact_evm_payload_authorization_valid_after",
      "the authorization is not valid yet (validAfter is in the future): check the client's clock",
    ],
    [
      "invalid_exact_evm_payload_authorization_value_mismatch",
      "the authorization's value is not the offer's amount (1000000): sign the offer as given",
    ],
  ])("%s", (reason, message) => {
    expect(messageOf(reason)).toEqual({ reason, message });
  });

  it("the library's names for an unfunded wallet and a wrong payee become the specification's", () => {
    expect(messageOf("insufficient_balance").reason).toBe("insufficient_funds");
    expect(messageOf("invalid_exact_evm_insufficient_balance").reason).toBe("insufficient_funds");
    expect(messageOf("invalid_exact_evm_recipient_mismatch").reason).toBe(
      "invalid_exact_evm_payload_recipient_mismatch",
    );
  });

  it("recognises each token's revert text when the facilitator gives no code", () => {
    const revert = (detail: string) => messageOf(undefined, detail).reason;
    expect(revert("execution reverted: FiatTokenV2: invalid signature")).toBe(
      "invalid_exact_evm_payload_signature",
    );
    expect(revert("EIP3009: signature invalid")).toBe("invalid_exact_evm_payload_signature");
    expect(revert("ECRecover: invalid signature 'v' value")).toBe("invalid_exact_evm_payload_signature");
    expect(revert("FiatTokenV2: authorization is used or canceled")).toBe(
      "invalid_exact_evm_nonce_already_used",
    );
    expect(revert("FiatTokenV2: authorization is expired")).toBe(
      "invalid_exact_evm_payload_authorization_valid_before",
    );
    expect(revert("FiatTokenV2: authorization is not yet valid")).toBe(
      "invalid_exact_evm_payload_authorization_valid_after",
    );
    // A known code wins over the text; an unknown code over an unrecognised text.
    expect(messageOf("invalid_exact_evm_nonce_already_used", "ERC20InsufficientBalance").reason).toBe(
      "invalid_exact_evm_nonce_already_used",
    );
    expect(messageOf("some_new_code", "ERC20InsufficientBalance").reason).toBe("insufficient_funds");
    expect(messageOf("some_new_code", "nothing known").message).toBe(
      "the payment facilitator refused the payment (some_new_code)",
    );
  });
});
