import { ERROR_KINDS, type ErrorKind } from "./catalogue.js";

/**
 * Every reason code the gateway itself puts on the wire (`error.metadata.reason` on OpenAI-format and
 * management routes, where `error.code` is the HTTP status; `error.code` on Anthropic-format routes), with the kind that fixes its HTTP status
 * (ERROR_KINDS) and what it means. This is the one place a new code is added: GatewayError accepts
 * only a code listed here whose kind matches the error's kind. A code with two kinds is one name the
 * wire already uses in two places (both kept as they are); the meaning says which is which.
 *
 * Not in here, on purpose: codes an upstream provider sent (passed through as data with
 * `upstreamCode`), the planner's exclusion reasons in `error.metadata.excluded[].code`, and gRPC
 * status codes between the apps (a GatewayError crossing gRPC keeps its kind, not its code).
 */
export const ERROR_CODES = {
  // 400: the request is wrong
  invalid_request: {
    kind: "invalid_request",
    meaning: "a field of the request failed validation; the message names the field",
  },
  invalid_json: {
    kind: "invalid_request",
    meaning: "the body was read in full but is not JSON, or is JSON that is not an object",
  },
  invalid_body: {
    kind: "invalid_request",
    meaning: "the body could not be read at all (the client's stream failed): not a parse error",
  },
  last_management_key: {
    kind: "invalid_request",
    meaning:
      "revoking this management key would leave the account without a usable one; rotate it, or create another first",
  },
  invalid_parameter: {
    kind: "invalid_request",
    meaning: "a query-string parameter is out of range (invalid_request is for body fields)",
  },
  model_not_priced: {
    kind: "invalid_request",
    meaning:
      "the provider proxy refuses a model the catalogue does not price at that provider (it would be served unmetered)",
  },
  price_confirmation_required: {
    kind: "invalid_request",
    meaning:
      "an operator catalogue change sets a price above the threshold without confirm_high_prices: true; metadata.high_prices lists them",
  },
  invalid_path: {
    kind: "invalid_request",
    meaning: "a path with dot segments or encoded slashes, which its owner could read as another path",
  },
  malformed_url: {
    kind: "invalid_request",
    meaning:
      "a path segment or query component with a malformed percent-escape (`%ff`) or a control character (`%00`)",
  },
  payment_malformed: {
    kind: "invalid_request",
    meaning: "the PAYMENT-SIGNATURE or X-PAYMENT header is not base64 JSON of an x402 payment payload",
  },
  json_too_deep: {
    kind: "invalid_request",
    meaning: "the JSON body nests arrays or objects deeper than 64 levels",
  },
  unsupported_encoding: {
    kind: "invalid_request",
    meaning:
      "a Content-Encoding the gateway cannot decode, or a Content-Type charset other than UTF-8 (refused before the body is read; metadata.charset names it)",
  },
  unsupported_content_type: {
    kind: "invalid_request",
    meaning: "the provider proxy got a body that is not JSON; it forwards JSON only",
  },
  wrong_model_kind: {
    kind: "invalid_request",
    meaning: "the model exists but is of another kind (an embedding model on a chat route, or back)",
  },
  untranslatable_request: {
    kind: "invalid_request",
    meaning: "the request uses something the target wire format cannot express",
  },
  context_length_exceeded: {
    kind: "invalid_request",
    meaning:
      "no endpoint of the model (or its fallbacks) can hold the estimated prompt plus the requested output " +
      "(its context window or output cap); the message gives the figures",
  },
  batch_not_ended: {
    kind: "invalid_request",
    meaning: "a message batch's results were asked for before it ended",
  },
  upstream_rejected_request: {
    kind: [
      "invalid_request",
      "authentication",
      "payment_required",
      "permission",
      "not_found",
      "request_timeout",
      "request_too_large",
      "rate_limit",
    ],
    meaning:
      "the provider refused the request itself (400/413/422 or a context-length error) and sent no code " +
      "of its own; the status mirrors the provider's 4xx (a provider's own code passes through instead)",
  },

  // 401: who is calling is not established
  missing_credentials: { kind: "authentication", meaning: "no Authorization header, or not a Bearer one" },
  key_not_found: {
    kind: ["authentication", "not_found"],
    meaning:
      "401: the presented API key (or a wallet token's key) is unknown; 404: a management call named a " +
      "key hash that does not exist",
  },
  key_disabled: { kind: "authentication", meaning: "the API key (or a wallet token's key) is disabled" },
  key_expired: {
    kind: "authentication",
    meaning: "the API key (or a wallet token's key) is past expires_at",
  },
  service_token_invalid: {
    kind: "authentication",
    meaning: "an app-to-app call without a valid service token (Ed25519 JWT for this audience)",
  },
  wallet_auth_not_configured: {
    kind: ["authentication", "service_unavailable"],
    meaning:
      "wallet sign-in is not configured on this gateway: 401 when a wallet token is presented to an app " +
      "without the wallet secret, 503 on the sign-in route itself",
  },
  jwt_malformed: { kind: "authentication", meaning: "a wallet token that is not a well-formed JWT" },
  jwt_algorithm_not_allowed: { kind: "authentication", meaning: "a wallet token not signed with HS256" },
  jwt_signature_invalid: {
    kind: "authentication",
    meaning: "a wallet token whose signature does not verify",
  },
  jwt_issuer_mismatch: { kind: "authentication", meaning: "a wallet token from another issuer" },
  jwt_audience_mismatch: { kind: "authentication", meaning: "a wallet token for another audience" },
  jwt_expired: { kind: "authentication", meaning: "a wallet token past its exp" },
  jwt_claims_invalid: { kind: "authentication", meaning: "a wallet token lacking or misstating a claim" },
  jwt_revoked: { kind: "authentication", meaning: "a wallet token revoked by a newer sign-in or a revoke" },
  missing_siwx_proof: { kind: "authentication", meaning: "a wallet sign-in without a SIWx proof" },
  invalid_siwx_header: { kind: "authentication", meaning: "the SIWx header is not decodable" },
  invalid_siwx_body: { kind: "authentication", meaning: "the sign-in body is not a SIWx proof" },
  invalid_siwx_payload: { kind: "authentication", meaning: "the SIWx payload lacks or misstates a field" },
  invalid_siwx_message: { kind: "authentication", meaning: "the signed SIWx message does not parse" },
  invalid_siwx_domain_mismatch: { kind: "authentication", meaning: "the SIWx message names another domain" },
  invalid_siwx_uri_mismatch: { kind: "authentication", meaning: "the SIWx message names another URI" },
  invalid_siwx_version: { kind: "authentication", meaning: "the SIWx message has an unsupported version" },
  invalid_siwx_chain_id: { kind: "authentication", meaning: "the SIWx chain id is malformed" },
  invalid_siwx_unsupported_chain: {
    kind: "authentication",
    meaning: "the SIWx chain is not one the gateway serves",
  },
  invalid_siwx_address: { kind: "authentication", meaning: "the SIWx address is malformed for its chain" },
  invalid_siwx_issued_at: { kind: "authentication", meaning: "the SIWx issued-at is not a timestamp" },
  invalid_siwx_issued_at_too_old: {
    kind: "authentication",
    meaning: "the SIWx message was issued too long ago",
  },
  invalid_siwx_issued_at_in_future: {
    kind: "authentication",
    meaning: "the SIWx message is issued in the future",
  },
  invalid_siwx_expired: { kind: "authentication", meaning: "the SIWx message is past its expiration time" },
  invalid_siwx_not_yet_valid: {
    kind: "authentication",
    meaning: "the SIWx message is before its not-before",
  },
  invalid_siwx_nonce: { kind: "authentication", meaning: "the SIWx nonce is not one the gateway issued" },
  invalid_siwx_nonce_reused: { kind: "authentication", meaning: "the SIWx nonce was already used" },
  invalid_siwx_malformed_signature: {
    kind: "authentication",
    meaning: "the SIWx signature is not decodable",
  },
  invalid_siwx_signature: { kind: "authentication", meaning: "the SIWx signature does not verify" },
  wallet_key_disabled: { kind: "authentication", meaning: "the wallet's implicit key is disabled" },

  // 402: the spend is refused
  insufficient_credits: { kind: "payment_required", meaning: "the account's balance is at or below zero" },
  quota_exceeded: { kind: "payment_required", meaning: "the key's spending limit is used up" },
  admission_refused: {
    kind: "payment_required",
    meaning: "billing refused the spend for a reason this edge does not know (a newer refusal code)",
  },
  x402_payment_required: {
    kind: "payment_required",
    meaning: "an inference request with no credential while x402 is on: PAYMENT-REQUIRED offers top-ups",
  },
  payment_invalid: {
    kind: "payment_required",
    meaning:
      "an x402 payment failed the gateway's check or the facilitator's verify; metadata.payment_reason names why (x402's reason); nothing was credited",
  },
  payment_settlement_failed: {
    kind: "payment_required",
    meaning:
      "the facilitator could not settle the x402 payment (PAYMENT-RESPONSE success false); nothing was credited",
  },

  // 403: the caller may not do this
  management_key_required: { kind: "permission", meaning: "a management route called with an API key" },
  api_key_required: { kind: "permission", meaning: "an inference route called with a management key" },
  model_not_allowed: { kind: "permission", meaning: "the model is outside the key's allow-list" },
  provider_not_allowed: {
    kind: "permission",
    meaning: "the provider is outside the key's allow-list (or every provider of the model is)",
  },
  proxy_path_not_allowed: {
    kind: "permission",
    meaning: "the provider proxy does not forward this method and path",
  },
  outside_account_scope: { kind: "permission", meaning: "a model or provider outside the account's scope" },
  service_not_allowed: {
    kind: "permission",
    meaning: "a valid service token from an app not allowed this call",
  },

  // 404: the thing named does not exist
  route_not_found: { kind: "not_found", meaning: "no route for this method and path" },
  model_not_found: { kind: "not_found", meaning: "no model of this id in the catalogue" },
  generation_not_found: { kind: "not_found", meaning: "no generation of this id for this account" },
  generation_pending: {
    kind: "not_found",
    meaning: "the generation exists but its record is not written yet; retry shortly",
  },
  batch_not_found: { kind: "not_found", meaning: "no message batch of this id for this account" },
  credential_not_found: { kind: "not_found", meaning: "no BYOK credential of this id for this account" },

  // 408
  body_timeout: {
    kind: "request_timeout",
    meaning: "the request body was still arriving after the body timeout (BODY_TIMEOUT_MS, default 10 s)",
  },

  // 413
  body_too_large: { kind: "request_too_large", meaning: "the body is over the size limit (default 10 MiB)" },

  // 429
  rate_limited: {
    kind: "rate_limit",
    meaning: "the gateway's own rate limit for the key or account (Retry-After and X-RateLimit-* set)",
  },
  flood_limited: {
    kind: "rate_limit",
    meaning:
      "the edge's guard against traffic far beyond reasonable use, per client address or credential (Retry-After set; lifts as traffic normalises)",
  },
  account_creation_limited: {
    kind: "rate_limit",
    meaning:
      "too many new accounts (wallet sign-ins or first payments) from this client address or from everyone in the current window (ACCOUNT_CREATION_*; Retry-After set); an existing wallet is never refused by it",
  },
  upstream_rate_limited: {
    kind: "rate_limit",
    meaning: "every provider tried answered 429: the provider's limit, not ours (Retry-After: 1)",
  },

  // 502: the provider failed
  upstream_error: {
    kind: "upstream",
    meaning: "no provider could serve the request (5xx, unreachable, invalid response) and none was left",
  },
  connect: { kind: "upstream", meaning: "in a stream's error event: the provider could not be reached" },
  timeout: {
    kind: "upstream",
    meaning: "in a stream's error event: the provider stopped answering mid-stream",
  },
  protocol: {
    kind: "upstream",
    meaning: "in a stream's error event: the provider sent a malformed frame or closed the stream early",
  },

  web_search_failed: {
    kind: "upstream",
    meaning:
      "the web plugin's search provider (WEB_SEARCH_URL) failed, timed out or answered malformed; no model was called",
  },
  facilitator_error: {
    kind: "upstream",
    meaning: "the x402 facilitator answered with an error status or a malformed body; nothing was credited",
  },

  // 503: the gateway (or a part it needs) cannot serve now
  no_available_provider: {
    kind: "service_unavailable",
    meaning: "no endpoint is left after the filters; metadata.excluded says why each one went",
  },
  dependency_unavailable: {
    kind: "service_unavailable",
    meaning: "a service or store the request needs (keys, billing, admission store, batch store) is down",
  },
  catalog_unavailable: {
    kind: "service_unavailable",
    meaning: "the edge has not loaded the model catalogue yet (a request that needs it)",
  },
  not_ready: {
    kind: "service_unavailable",
    meaning: "the edge's readiness probe: not ready to take traffic (the catalogue is not loaded yet)",
  },
  catalog_not_seeded: {
    kind: "service_unavailable",
    meaning: "the keys app holds no catalogue snapshot yet (seed it first)",
  },
  facilitator_unavailable: {
    kind: "service_unavailable",
    meaning: "the x402 facilitator did not answer in time or could not be reached; nothing was credited",
  },
  byok_not_configured: {
    kind: "service_unavailable",
    meaning: "BYOK needs BYOK_MASTER_KEY, which is not set",
  },
  batches_not_configured: {
    kind: "service_unavailable",
    meaning: "message batches need a batch store, which this gateway does not have",
  },

  // 504
  upstream_timeout: { kind: "gateway_timeout", meaning: "the provider did not answer in time" },
} as const satisfies Record<
  string,
  { readonly kind: ErrorKind | readonly ErrorKind[]; readonly meaning: string }
>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The kinds a code may be sent with. */
export type KindsOfCode<C extends ErrorCode> = (typeof ERROR_CODES)[C]["kind"] extends infer K
  ? K extends readonly (infer E)[]
    ? E
    : K
  : never;

/**
 * The codes an error of kind K may carry. For a kind only known as a union (e.g. `ErrorKind`), only
 * codes valid for every member qualify, so a code cannot ride on a kind that would change its status.
 */
export type CodeFor<K extends ErrorKind> = {
  [C in ErrorCode]: [K] extends [KindsOfCode<C>] ? C : never;
}[ErrorCode];

export function kindsOfCode(code: ErrorCode): readonly ErrorKind[] {
  const { kind } = ERROR_CODES[code];
  return typeof kind === "string" ? [kind] : kind;
}

/** The 4xx kinds: what a provider's refusal of the request itself may map to. */
export type ClientErrorKind = {
  [K in ErrorKind]: (typeof ERROR_KINDS)[K]["status"] extends 400 | 401 | 402 | 403 | 404 | 408 | 413 | 429
    ? K
    : never;
}[ErrorKind];

export function isClientErrorKind(kind: ErrorKind): kind is ClientErrorKind {
  return ERROR_KINDS[kind].status < 500;
}
