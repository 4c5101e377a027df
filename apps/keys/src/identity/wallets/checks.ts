import { base58 } from "@scure/base";
import { getAddress, isAddress } from "viem";
import { siwxError } from "./failures.js";
import type { SiwxFields, WalletNamespace } from "./siwx-message.js";

/** Everything about a sign-in that holds before its signature is looked at. */
export interface SignInClaim {
  namespace: WalletNamespace;
  /** Canonical spelling: EIP-55 checksummed, or the base58 public key. */
  address: string;
  /** CAIP-2 reference: `8453`, or a Solana genesis hash. */
  chainReference: string;
  /** CAIP-10 account id: the JWT's `sub` and the response's `account_id`. */
  accountId: string;
  nonce: string;
  /** When the nonce may be forgotten: past it, the message's Issued At is outside the window anyway. */
  nonceExpiresAt: Date;
}

export interface SignInWindow {
  /** How old Issued At may be (spec: 5 minutes). */
  maxAgeMs: number;
  /** Clock skew tolerated for Issued At and Not Before in the future. */
  skewMs: number;
}

export const DEFAULT_WINDOW: SignInWindow = { maxAgeMs: 5 * 60_000, skewMs: 30_000 };

// Solana wallets may name the cluster instead of its genesis hash; the CAIP-2 reference is the hash.
const SOLANA_CLUSTERS: Record<string, string> = {
  mainnet: "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp",
  "mainnet-beta": "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp",
  devnet: "EtWTRABZaYq6iMfeYKouRu166VU2xqa1",
  testnet: "4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z",
};

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** The checks in the order the spec gives them: domain and URI, chain, address, nonce shape, times. */
export function checkFields(
  fields: SiwxFields,
  publicBaseUrl: URL,
  now: Date,
  window: SignInWindow = DEFAULT_WINDOW,
): SignInClaim {
  if (fields.domain !== publicBaseUrl.host)
    throw siwxError(
      "invalid_siwx_domain_mismatch",
      `the message is for ${fields.domain}, not ${publicBaseUrl.host}`,
    );
  if (originOf(fields.uri) !== publicBaseUrl.origin)
    throw siwxError("invalid_siwx_uri_mismatch", `the URI must be on ${publicBaseUrl.origin}`);
  if (fields.version !== "1") throw siwxError("invalid_siwx_version", "Version must be 1");
  const chainReference = chainReferenceOf(fields);
  const address = canonicalAddress(fields);
  if (!/^[A-Za-z0-9]{8,128}$/.test(fields.nonce))
    throw siwxError("invalid_siwx_nonce", "Nonce must be 8 to 128 letters and digits");
  const issuedAt = timestamp(fields.issuedAt, "invalid_siwx_issued_at", "Issued At");
  if (now.getTime() - issuedAt > window.maxAgeMs)
    throw siwxError("invalid_siwx_issued_at_too_old", "Issued At is more than 5 minutes old");
  if (issuedAt - now.getTime() > window.skewMs)
    throw siwxError("invalid_siwx_issued_at_in_future", "Issued At is in the future");
  if (fields.expirationTime !== undefined) {
    const expiration = timestamp(fields.expirationTime, "invalid_siwx_message", "Expiration Time");
    if (expiration <= now.getTime()) throw siwxError("invalid_siwx_expired", "the message has expired");
  }
  if (fields.notBefore !== undefined) {
    const notBefore = timestamp(fields.notBefore, "invalid_siwx_message", "Not Before");
    if (notBefore - now.getTime() > window.skewMs)
      throw siwxError("invalid_siwx_not_yet_valid", "the message is not valid yet (Not Before)");
  }
  return {
    namespace: fields.namespace,
    address,
    chainReference,
    accountId: `${fields.namespace}:${chainReference}:${address}`,
    nonce: fields.nonce,
    nonceExpiresAt: new Date(issuedAt + window.maxAgeMs + window.skewMs),
  };
}

function originOf(uri: string): string | undefined {
  try {
    return new URL(uri).origin;
  } catch {
    return undefined;
  }
}

function chainReferenceOf(fields: SiwxFields): string {
  if (fields.namespace === "eip155") {
    if (!/^[1-9][0-9]{0,18}$/.test(fields.chainId))
      throw siwxError("invalid_siwx_chain_id", "Chain ID must be a decimal EVM chain id");
    return fields.chainId;
  }
  const reference = SOLANA_CLUSTERS[fields.chainId] ?? fields.chainId;
  if (!/^[-_a-zA-Z0-9]{1,32}$/.test(reference))
    throw siwxError("invalid_siwx_chain_id", "Chain ID must be a Solana cluster's CAIP-2 reference");
  return reference;
}

function canonicalAddress(fields: SiwxFields): string {
  if (fields.namespace === "eip155") {
    // Strict: a mixed-case address must carry a valid EIP-55 checksum (a typo is caught, not signed for).
    if (!isAddress(fields.address, { strict: true }))
      throw siwxError("invalid_siwx_address", "the address is not an EVM address");
    return getAddress(fields.address);
  }
  if (publicKeyOf(fields.address) === undefined)
    throw siwxError("invalid_siwx_address", "the address is not a base58 ed25519 public key");
  return fields.address;
}

/** A Solana address's 32 public-key bytes, or undefined when it is not one. */
export function publicKeyOf(address: string): Uint8Array | undefined {
  try {
    const bytes = base58.decode(address);
    return bytes.length === 32 ? bytes : undefined;
  } catch {
    return undefined;
  }
}

function timestamp(
  value: string,
  reason: "invalid_siwx_issued_at" | "invalid_siwx_message",
  name: string,
): number {
  const parsed = TIMESTAMP.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(parsed)) throw siwxError(reason, `${name} is not an RFC 3339 timestamp`);
  return parsed;
}
