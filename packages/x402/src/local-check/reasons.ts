/**
 * Why the gateway's local pre-check refused a payment. Named as x402's own `invalidReason` strings where
 * x402 has one (@x402/core, @x402/evm and @x402/svm 2.27), so a client sees the same reason whether the
 * gateway or a facilitator refused; the two marked "ours" have no x402 equivalent.
 */
export const LOCAL_INVALID_REASONS = [
  /** Not a v2 PaymentPayload / PaymentRequirements, or the scheme payload lacks a field. */
  "invalid_payload",
  /** x402Version is not 2 (v1 payloads are converted by the caller first). */
  "invalid_x402_version",
  /** The scheme is not "exact". */
  "unsupported_scheme",
  /** The payload's network is not the required one. */
  "invalid_network",
  /** A Permit2 (or other non-EIP-3009) EVM payload: we only take transferWithAuthorization. */
  "unsupported_payload_type",
  /** The requirements lack the token's EIP-712 domain (extra.name / extra.version). */
  "invalid_exact_evm_missing_eip712_domain",
  /** ours: the payload names another token contract than the one required. */
  "invalid_exact_evm_asset_mismatch",
  "invalid_exact_evm_recipient_mismatch",
  "invalid_exact_evm_payload_authorization_value_mismatch",
  "invalid_exact_evm_payload_authorization_valid_after",
  "invalid_exact_evm_payload_authorization_valid_before",
  "invalid_exact_evm_signature",
  "invalid_exact_evm_nonce_already_used",
  "invalid_exact_svm_payload_transaction_could_not_be_decoded",
  "invalid_exact_svm_payload_missing_fee_payer",
  "invalid_exact_svm_payload_transaction_instructions_length",
  "invalid_exact_svm_payload_transaction_instructions_compute_limit_instruction",
  "invalid_exact_svm_payload_transaction_instructions_compute_price_instruction",
  "invalid_exact_svm_payload_transaction_instructions_compute_price_instruction_too_high",
  "invalid_exact_svm_payload_no_transfer_instruction",
  "invalid_exact_svm_payload_unknown_fourth_instruction",
  "invalid_exact_svm_payload_unknown_fifth_instruction",
  "invalid_exact_svm_payload_unknown_sixth_instruction",
  "invalid_exact_svm_payload_memo_count",
  "invalid_exact_svm_payload_memo_mismatch",
  "invalid_exact_svm_payload_mint_mismatch",
  "invalid_exact_svm_payload_recipient_mismatch",
  "invalid_exact_svm_payload_amount_mismatch",
  "invalid_exact_svm_payload_transaction_fee_payer_transferring_funds",
  "invalid_exact_svm_payload_signature_invalid",
  /** The same Solana transaction was already presented. */
  "duplicate_settlement",
] as const;

export type LocalInvalidReason = (typeof LOCAL_INVALID_REASONS)[number];
