import { GatewayError } from "@gw/errors";

/**
 * Why a sign-in was refused, sent as `error.metadata.reason`. The names follow x402's SIWx extension
 * (`invalid_siwx_*`) where it has one, so clients that know those codes read ours too.
 */
export type SiwxFailure =
  | "missing_siwx_proof"
  | "invalid_siwx_header"
  | "invalid_siwx_body"
  | "invalid_siwx_payload"
  | "invalid_siwx_message"
  | "invalid_siwx_domain_mismatch"
  | "invalid_siwx_uri_mismatch"
  | "invalid_siwx_version"
  | "invalid_siwx_chain_id"
  | "invalid_siwx_unsupported_chain"
  | "invalid_siwx_address"
  | "invalid_siwx_issued_at"
  | "invalid_siwx_issued_at_too_old"
  | "invalid_siwx_issued_at_in_future"
  | "invalid_siwx_expired"
  | "invalid_siwx_not_yet_valid"
  | "invalid_siwx_nonce"
  | "invalid_siwx_nonce_reused"
  | "invalid_siwx_malformed_signature"
  | "invalid_siwx_signature"
  | "wallet_key_disabled";

export function siwxError(reason: SiwxFailure, detail: string): GatewayError {
  return new GatewayError("authentication", `wallet sign-in failed: ${detail}`, {
    code: reason,
    metadata: { reason },
  });
}
