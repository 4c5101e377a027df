import type { KeyObject } from "node:crypto";
import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import { isServiceName, type ServiceName } from "./service-keys.js";

/** The gRPC metadata key and HTTP header that carry a service token between apps. */
export const SERVICE_TOKEN_HEADER = "x-gw-service-token";

const ALGORITHM = "EdDSA";
const TOKEN_TYPE = "gw-service+jwt";

export interface IssuerOptions {
  /** A token's lifetime; short, so a token read off the wire is useless soon. Default 300 s. */
  ttlSeconds?: number;
  /** A fresh token is signed this long before the current one expires. Default 60 s. */
  refreshBeforeSeconds?: number;
  now?: () => number;
}

interface Issued {
  token: string;
  expiresAtMs: number;
}

/**
 * Signs this app's tokens, one per audience, and reuses each until it nears expiry: the hot path
 * costs a map lookup; a signature is made once per audience every few minutes.
 */
export class ServiceTokenIssuer {
  readonly identity: ServiceName;
  private readonly key: KeyObject;
  private readonly ttlSeconds: number;
  private readonly refreshBeforeMs: number;
  private readonly now: () => number;
  private readonly issued = new Map<ServiceName, Issued>();
  private readonly signing = new Map<ServiceName, Promise<string>>();

  constructor(identity: ServiceName, privateKey: KeyObject, options: IssuerOptions = {}) {
    this.identity = identity;
    this.key = privateKey;
    this.ttlSeconds = options.ttlSeconds ?? 300;
    this.refreshBeforeMs = (options.refreshBeforeSeconds ?? 60) * 1000;
    this.now = options.now ?? Date.now;
  }

  /** The current token for `audience` when one is fresh enough, else undefined (see tokenFor). */
  cached(audience: ServiceName): string | undefined {
    const current = this.issued.get(audience);
    if (!current) return undefined;
    const remaining = current.expiresAtMs - this.now();
    if (remaining <= 0) return undefined;
    // Near expiry: keep answering with this one while the next is signed off the request's path.
    if (remaining < this.refreshBeforeMs) void this.sign(audience).catch(() => undefined);
    return current.token;
  }

  async tokenFor(audience: ServiceName): Promise<string> {
    return this.cached(audience) ?? this.sign(audience);
  }

  private sign(audience: ServiceName): Promise<string> {
    const inFlight = this.signing.get(audience);
    if (inFlight) return inFlight;
    const nowSeconds = Math.floor(this.now() / 1000);
    const promise = new SignJWT({})
      .setProtectedHeader({ alg: ALGORITHM, typ: TOKEN_TYPE, kid: this.identity })
      .setIssuer(this.identity)
      .setSubject(this.identity)
      .setAudience(audience)
      .setIssuedAt(nowSeconds)
      .setExpirationTime(nowSeconds + this.ttlSeconds)
      .sign(this.key)
      .then((token) => {
        this.issued.set(audience, { token, expiresAtMs: (nowSeconds + this.ttlSeconds) * 1000 });
        return token;
      })
      .finally(() => this.signing.delete(audience));
    this.signing.set(audience, promise);
    return promise;
  }
}

/** Why a token was refused; the reason goes to the log and the error code, never the token. */
export type ServiceAuthFailure =
  | "missing"
  | "malformed"
  | "bad_signature"
  | "expired"
  | "wrong_audience"
  | "unknown_issuer";

export class ServiceAuthError extends Error {
  readonly reason: ServiceAuthFailure;
  constructor(reason: ServiceAuthFailure) {
    super(`service token refused: ${reason}`);
    this.reason = reason;
  }
}

export interface VerifierOptions {
  /** Allowed clock difference between apps. Default 30 s. */
  clockToleranceSeconds?: number;
  /** Verified tokens remembered (each until it expires). Default 256. */
  cacheEntries?: number;
  now?: () => number;
}

/**
 * Checks tokens addressed to this app against the issuers' public keys, locally (no remote call).
 * A token once verified is remembered until its expiry, so a caller that reuses its token (every
 * app here does) costs a map lookup per call; the signature is checked once per token.
 */
export class ServiceTokenVerifier {
  readonly audience: ServiceName;
  private readonly keys: ReadonlyMap<ServiceName, KeyObject>;
  private readonly toleranceSeconds: number;
  private readonly cacheEntries: number;
  private readonly now: () => number;
  private readonly verified = new Map<string, { issuer: ServiceName; expiresAtMs: number }>();

  constructor(
    audience: ServiceName,
    publicKeys: ReadonlyMap<ServiceName, KeyObject>,
    options: VerifierOptions = {},
  ) {
    this.audience = audience;
    this.keys = publicKeys;
    this.toleranceSeconds = options.clockToleranceSeconds ?? 30;
    this.cacheEntries = options.cacheEntries ?? 256;
    this.now = options.now ?? Date.now;
  }

  /** The issuer of a token verified before and not yet expired; undefined means "call verify". */
  cachedIssuer(token: string): ServiceName | undefined {
    const entry = this.verified.get(token);
    if (!entry) return undefined;
    if (entry.expiresAtMs + this.toleranceSeconds * 1000 > this.now()) return entry.issuer;
    this.verified.delete(token);
    return undefined;
  }

  /** Resolves with the calling app's name or rejects with a ServiceAuthError. */
  async verify(token: string | undefined): Promise<ServiceName> {
    if (token === undefined || token === "") throw new ServiceAuthError("missing");
    const cached = this.cachedIssuer(token);
    if (cached) return cached;
    const issuer = await this.check(token);
    return issuer;
  }

  private async check(token: string): Promise<ServiceName> {
    let issuer: ServiceName | undefined;
    try {
      const { payload } = await jwtVerify(
        token,
        (header) => {
          const kid = header.kid ?? "";
          if (!isServiceName(kid) || !this.keys.has(kid)) throw new ServiceAuthError("unknown_issuer");
          issuer = kid;
          return this.keys.get(kid) as KeyObject;
        },
        {
          algorithms: [ALGORITHM],
          typ: TOKEN_TYPE,
          audience: this.audience,
          clockTolerance: this.toleranceSeconds,
          requiredClaims: ["iss", "iat", "exp"],
          currentDate: new Date(this.now()),
          // No long-lived tokens, whatever `exp` says.
          maxTokenAge: 15 * 60,
        },
      );
      if (issuer === undefined || payload.iss !== issuer || payload.exp === undefined) {
        throw new ServiceAuthError("unknown_issuer");
      }
      this.remember(token, issuer, payload.exp * 1000);
      return issuer;
    } catch (error) {
      throw toAuthError(error);
    }
  }

  private remember(token: string, issuer: ServiceName, expiresAtMs: number): void {
    // Bounded: a flood of distinct valid tokens (only a key holder can make them) resets the cache.
    if (this.verified.size >= this.cacheEntries) this.verified.clear();
    this.verified.set(token, { issuer, expiresAtMs });
  }
}

function toAuthError(error: unknown): ServiceAuthError {
  if (error instanceof ServiceAuthError) return error;
  if (error instanceof joseErrors.JWTExpired) return new ServiceAuthError("expired");
  if (error instanceof joseErrors.JWSSignatureVerificationFailed)
    return new ServiceAuthError("bad_signature");
  if (error instanceof joseErrors.JWTClaimValidationFailed && error.claim === "aud") {
    return new ServiceAuthError("wrong_audience");
  }
  if (error instanceof joseErrors.JWTClaimValidationFailed && error.claim === "iat") {
    return new ServiceAuthError("expired");
  }
  return new ServiceAuthError("malformed");
}
