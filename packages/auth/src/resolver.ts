import { GatewayError } from "@gw/errors";
import type { EventSubscriber, Subscription } from "@gw/events";
import { decodeEnvelope, decodePayload, KEY_CHANGED_V1 } from "@gw/events";
import { recordAuthLookup } from "@gw/metrics";
import {
  type AuthenticateRequest,
  type AuthenticateResponse,
  AuthFailureReason,
  KeyServiceClient,
} from "@gw/proto/keys/v1/keys";
import { connectClient, dependencyError, type ServiceTokenIssuer } from "@gw/rpc";
import { hashSecret, looksLikeServiceKey } from "./credentials.js";
import { type AuthFailureCode, assertUsable, invalidKey, type Principal } from "./principal.js";
import { looksLikeJwt, type WalletTokens, walletTokenError } from "./wallet-token.js";

export interface ResolverOptions {
  /** Upper bound on how long a positive answer is trusted if a key-change event is lost. */
  maxTtlMs?: number;
  /** How long an unknown key is remembered, so a flood of bad keys cannot load the control plane. */
  negativeTtlMs?: number;
  maxEntries?: number;
  timeoutMs?: number;
  now?: () => number;
  /** Verifies wallet JWTs locally; without it a JWT is refused with `wallet_auth_not_configured`. */
  walletTokens?: WalletTokens | undefined;
}

/** One RPC in flight; `stale` once a key change overtook it, so its answer is used but not cached. */
interface Lookup {
  promise: Promise<CacheEntry>;
  state: { stale: boolean };
}

type CacheEntry =
  | { principal: Principal; expiresAt: number }
  | { failure: AuthFailureCode; expiresAt: number };

export type Authenticate = (request: AuthenticateRequest) => Promise<AuthenticateResponse>;

function isKeyFailure(code: string | undefined): code is AuthFailureCode {
  return code === "key_not_found" || code === "key_disabled" || code === "key_expired";
}

const FAILURE_CODES: Record<AuthFailureReason, AuthFailureCode> = {
  [AuthFailureReason.AUTH_FAILURE_REASON_UNSPECIFIED]: "key_not_found",
  [AuthFailureReason.AUTH_FAILURE_REASON_KEY_NOT_FOUND]: "key_not_found",
  [AuthFailureReason.AUTH_FAILURE_REASON_KEY_DISABLED]: "key_disabled",
  [AuthFailureReason.AUTH_FAILURE_REASON_KEY_EXPIRED]: "key_expired",
  [AuthFailureReason.UNRECOGNIZED]: "key_not_found",
};

/**
 * Secret → principal, through an in-process cache in front of KeyService.Authenticate. Entries are
 * dropped when a key-change event arrives and are bounded by a short TTL; concurrent lookups of the
 * same key share one RPC.
 */
export class PrincipalResolver {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly inFlight = new Map<string, Lookup>();
  private readonly maxTtlMs: number;
  private readonly negativeTtlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;
  private readonly walletTokens: WalletTokens | undefined;

  constructor(
    private readonly authenticate: Authenticate,
    options: ResolverOptions = {},
  ) {
    this.maxTtlMs = options.maxTtlMs ?? 10_000;
    this.negativeTtlMs = options.negativeTtlMs ?? 2_000;
    this.maxEntries = options.maxEntries ?? 100_000;
    this.now = options.now ?? Date.now;
    this.walletTokens = options.walletTokens;
  }

  /** `issuer`: the calling app's service tokens (addressed to keys); absent where service auth is off. */
  static connect(
    keysAddress: string,
    options: ResolverOptions & { issuer?: ServiceTokenIssuer | undefined } = {},
  ): { resolver: PrincipalResolver; close(): void } {
    const { issuer, ...resolverOptions } = options;
    const keys = connectClient(KeyServiceClient, keysAddress, {
      audience: "keys",
      issuer,
      timeoutMs: options.timeoutMs ?? 3_000,
    });
    return {
      resolver: new PrincipalResolver((request) => keys.authenticate(request), resolverOptions),
      close: keys.close,
    };
  }

  /**
   * Resolves a secret (an API key, or a wallet JWT told apart by its shape) to a usable principal or
   * throws the spec's 401 with the reason in `code`.
   */
  async resolveSecret(secret: string): Promise<Principal> {
    if (looksLikeJwt(secret)) return this.resolveWalletToken(secret);
    if (!looksLikeServiceKey(secret)) throw invalidKey("key_not_found");
    return this.resolveHash(hashSecret(secret));
  }

  /**
   * A wallet JWT is checked here (signature, claims) and then resolved to its implicit key through the
   * same cache as API keys: a warm request makes no remote call, and disabling the key, or raising its
   * token version (revocation), reaches every edge through the key-change event that drops the entry.
   */
  async resolveWalletToken(token: string): Promise<Principal> {
    if (!this.walletTokens) throw walletTokenError("wallet_auth_not_configured");
    const claims = await this.walletTokens.verify(token);
    let principal: Principal;
    try {
      principal = await this.resolveHash(claims.keyId);
    } catch (error) {
      if (error instanceof GatewayError && error.status === 401 && isKeyFailure(error.code))
        throw walletTokenError(error.code);
      throw error;
    }
    const version = principal.walletTokenVersion;
    if (principal.accountId !== claims.tenantId || version === undefined)
      throw walletTokenError("jwt_claims_invalid");
    if (claims.tokenVersion < version) throw walletTokenError("jwt_revoked");
    return principal;
  }

  async resolveHash(keyHash: string): Promise<Principal> {
    const entry = await this.lookup(keyHash);
    if ("failure" in entry) throw invalidKey(entry.failure);
    return assertUsable(entry.principal, new Date(this.now()));
  }

  /**
   * Drops the cached answer, and keeps an answer already on its way (read before the change was
   * committed) from being cached: the next request asks again.
   */
  invalidate(keyHash: string): void {
    this.cache.delete(keyHash);
    const pending = this.inFlight.get(keyHash);
    if (pending) {
      pending.state.stale = true;
      this.inFlight.delete(keyHash);
    }
  }

  clear(): void {
    this.cache.clear();
  }

  size(): number {
    return this.cache.size;
  }

  /**
   * Drops cached principals as key-change events arrive. Every instance must see every event, so
   * each subscribes with its own consumer group and starts at the latest offset.
   */
  subscribeToKeyChanges(bus: EventSubscriber, topic: string, instanceId: string): Promise<Subscription> {
    return bus.subscribe({
      topic,
      groupId: `key-cache-${instanceId}`,
      fromBeginning: false,
      handler: async (message) => {
        const change = decodePayload(KEY_CHANGED_V1, decodeEnvelope(message.value));
        if (change) this.invalidate(change.keyHash);
      },
    });
  }

  private async lookup(keyHash: string): Promise<CacheEntry> {
    const cached = this.cache.get(keyHash);
    if (cached && cached.expiresAt > this.now()) {
      recordAuthLookup("hit");
      return cached;
    }
    const pending = this.inFlight.get(keyHash);
    if (pending) {
      recordAuthLookup("shared");
      return pending.promise;
    }
    recordAuthLookup("miss");
    const state = { stale: false };
    const promise = this.fetch(keyHash, state).finally(() => {
      if (this.inFlight.get(keyHash)?.state === state) this.inFlight.delete(keyHash);
    });
    this.inFlight.set(keyHash, { promise, state });
    return promise;
  }

  private async fetch(keyHash: string, state: { stale: boolean }): Promise<CacheEntry> {
    let response: AuthenticateResponse;
    try {
      response = await this.authenticate({ keyHash });
    } catch (error) {
      throw dependencyError("key service", error);
    }
    const now = this.now();
    const entry: CacheEntry =
      response.result?.$case === "principal"
        ? {
            principal: response.result.value,
            expiresAt: now + Math.min(response.cacheTtlMs || this.maxTtlMs, this.maxTtlMs),
          }
        : {
            failure:
              FAILURE_CODES[response.result?.value ?? AuthFailureReason.AUTH_FAILURE_REASON_KEY_NOT_FOUND],
            expiresAt: now + this.negativeTtlMs,
          };
    if (!state.stale) this.remember(keyHash, entry);
    return entry;
  }

  private remember(keyHash: string, entry: CacheEntry): void {
    if (this.cache.size >= this.maxEntries) {
      // Map iteration order is insertion order: dropping the first entry evicts the oldest.
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    this.cache.set(keyHash, entry);
  }
}
