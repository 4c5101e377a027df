import type { Network } from "../types.js";
import type { LocalInvalidReason } from "./reasons.js";

/**
 * Remembers authorizations already presented, so a replay is refused before any facilitator is asked.
 * The gateway backs it with a store every replica shares; `has` must not record anything (the caller
 * records the id once the payment has settled).
 */
export interface SeenAuthorizations {
  has(authorizationId: string): boolean | Promise<boolean>;
}

export interface LocalCheckOptions {
  /** Current time in milliseconds since the epoch (injectable for tests). Default Date.now(). */
  now?: number;
  /** Replay guard; without it replays are left to the facilitator (the token's nonce map). */
  seen?: SeenAuthorizations;
}

export interface LocalCheckPassed {
  ok: true;
  /** The paying account: EVM `from` (checksummed) or the Solana token owner (base58). */
  payer: string;
  network: Network;
  /** Atomic units, exactly the required amount. */
  amount: string;
  /**
   * Identifies this authorization across retries and replicas: `network:payer:nonce` for EVM (the
   * EIP-3009 nonce), `network:payer:signature` for Solana (the payer's transaction signature). Credit
   * exactly once per id.
   */
  authorizationId: string;
  /**
   * EVM: the authorization's validBefore (unix seconds); after it an unused nonce can never be spent,
   * which is what lets a reconciler call a lost settle "never settled". Absent on Solana.
   */
  validBefore?: number;
}

export interface LocalCheckFailed {
  ok: false;
  reason: LocalInvalidReason;
  /** For people: what exactly did not match. Never contains a signature or key. */
  message: string;
}

export type LocalCheckResult = LocalCheckPassed | LocalCheckFailed;
