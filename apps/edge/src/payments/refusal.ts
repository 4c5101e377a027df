/**
 * What a client is told when a payment is refused: x402's documented reason code and a message of the
 * gateway's own, never a facilitator's free text. A facilitator's `invalidMessage`/`errorMessage` is
 * whatever its chain library said; @x402/evm 2.27 sends the raw simulation error, e.g. `The contract
 * function "transferWithAuthorization" reverted with the following reason: ERC20: transfer amount
 * exceeds balance` with the contract address and call arguments, which tells an agent nothing it can
 * act on. Reason codes follow the x402 v2 specification's error codes (§9: `insufficient_funds`,
 * `invalid_exact_evm_payload_signature`, `invalid_exact_evm_payload_recipient_mismatch`, …) where it has
 * one, x402's TypeScript library names (`invalid_exact_evm_nonce_already_used`, …) where it does not.
 */
export interface Refusal {
  readonly reason: string;
  readonly message: string;
}

/** What the refused payment was for, to word the message. */
export interface RefusedOffer {
  readonly amount: string;
  readonly asset: string;
  readonly network: string;
}

/** x402's TypeScript library's names (@x402/evm 2.27) → the specification's code for the same case. */
const SPEC_NAMES: Readonly<Record<string, string>> = {
  invalid_exact_evm_insufficient_balance: "insufficient_funds",
  insufficient_balance: "insufficient_funds",
  invalid_exact_evm_signature: "invalid_exact_evm_payload_signature",
  invalid_exact_evm_recipient_mismatch: "invalid_exact_evm_payload_recipient_mismatch",
};

/**
 * Revert reasons of the tokens x402 pays with (OpenZeppelin's ERC20, Circle's FiatTokenV2 USDC, and
 * EIP-3009's own), for a facilitator that answers only "simulation failed" or "transaction failed".
 */
const REVERTS: readonly (readonly [RegExp, string])[] = [
  [
    /transfer amount exceeds balance|insufficient (funds|balance)|ERC20InsufficientBalance/i,
    "insufficient_funds",
  ],
  [
    /invalid signature|ECRecover|signature (is )?invalid|InvalidSignature/i,
    "invalid_exact_evm_payload_signature",
  ],
  [/authorization is used or canceled|nonce already used/i, "invalid_exact_evm_nonce_already_used"],
  [/authorization is expired/i, "invalid_exact_evm_payload_authorization_valid_before"],
  [/authorization is not yet valid/i, "invalid_exact_evm_payload_authorization_valid_after"],
];

const MESSAGES: Readonly<Record<string, (offer: RefusedOffer) => string>> = {
  insufficient_funds: (o) =>
    `the paying wallet does not hold the ${o.amount} atomic units of ${o.asset} this payment needs on ${o.network}: fund it, or pay from another wallet`,
  invalid_exact_evm_payload_signature: () =>
    "the payment's signature does not verify for the paying wallet: sign the offer again with the wallet that pays",
  invalid_exact_evm_payload_recipient_mismatch: () =>
    "the payment is not made out to the offer's payTo address: sign the offer as given",
  invalid_exact_evm_nonce_already_used: () =>
    "this authorization was already used: sign a new payment (a new nonce) for this request",
  invalid_exact_evm_payload_authorization_valid_before: () =>
    "the authorization has expired: sign a new payment",
  invalid_exact_evm_payload_authorization_valid_after: () =>
    "the authorization is not valid yet (validAfter is in the future): check the client's clock",
  invalid_exact_evm_payload_authorization_value_mismatch: (o) =>
    `the authorization's value is not the offer's amount (${o.amount}): sign the offer as given`,
};

/** A local check's refusal: its own message is the gateway's; only the code takes the spec's name. */
export function localRefusal(reason: string, message: string): Refusal {
  return { reason: SPEC_NAMES[reason] ?? reason, message };
}

/**
 * A facilitator's refusal (`verify` invalid, or `settle` unsuccessful). `detail` is its free text, used
 * only to recognise a revert the reason code does not name; it is never passed on.
 */
export function facilitatorRefusal(
  reason: string | undefined,
  detail: string | undefined,
  offer: RefusedOffer,
  fallback: string,
): Refusal {
  const named = SPEC_NAMES[reason ?? ""] ?? reason;
  const known = named && MESSAGES[named] ? named : undefined;
  const reverted = REVERTS.find(([pattern]) => pattern.test(detail ?? ""))?.[1];
  const code = known ?? reverted ?? named ?? fallback;
  const message = MESSAGES[code]?.(offer) ?? `the payment facilitator refused the payment (${code})`;
  return { reason: code, message };
}
