import { randomUUID } from "node:crypto";
import { GatewayError } from "@gw/errors";
import { errors, type JWTPayload, jwtVerify, SignJWT } from "jose";

/**
 * Wallet JWTs: what a wallet gets from `POST /v1/x402/auth` (and later from a payment) and then sends
 * wherever an API key goes. HS256 under one shared secret: the keys app signs, every app that
 * authenticates callers verifies locally, with no call to the keys app for the token itself.
 */
export const WALLET_JWT_ALGORITHM = "HS256";
export const WALLET_JWT_ISSUER = "model-gateway";
export const WALLET_JWT_AUDIENCE = "model-gateway-api";
export const DEFAULT_WALLET_JWT_TTL_S = 3_600;
/** HS256 keys shorter than the hash output weaken it (RFC 7518 §3.2). */
export const MIN_WALLET_JWT_SECRET_BYTES = 32;

export const INVALID_WALLET_TOKEN_MESSAGE = "invalid wallet token";

/** Why a wallet JWT was refused; sent as `error.metadata.reason`. */
export type WalletTokenFailure =
  | "jwt_malformed"
  | "jwt_algorithm_not_allowed"
  | "jwt_signature_invalid"
  | "jwt_issuer_mismatch"
  | "jwt_audience_mismatch"
  | "jwt_expired"
  | "jwt_claims_invalid"
  | "jwt_revoked"
  | "key_not_found"
  | "key_disabled"
  | "key_expired"
  | "wallet_auth_not_configured";

export function walletTokenError(reason: WalletTokenFailure): GatewayError {
  return new GatewayError("authentication", INVALID_WALLET_TOKEN_MESSAGE, {
    code: reason,
    metadata: { reason },
  });
}

/** What a wallet JWT says: who the wallet is and which tenant and implicit key it acts as. */
export interface WalletClaims {
  /** CAIP-10 account id, e.g. `eip155:8453:0xAbC…` or `solana:5eykt…:<base58>`. */
  subject: string;
  tenantId: string;
  /** The implicit key's id (its hash), through which usage and limits are attributed. */
  keyId: string;
  /** The implicit key's token version when issued; a revocation raises the key's version. */
  tokenVersion: number;
  jti: string;
  issuedAt: number;
  expiresAt: number;
}

export interface IssuedWalletToken {
  jwt: string;
  jti: string;
  expiresAt: Date;
}

export interface WalletTokenOptions {
  secret: Uint8Array;
  ttlSeconds?: number;
  /** Leeway for clocks of different machines when checking `exp`/`iat`. */
  clockToleranceS?: number;
  /** How many verified tokens are remembered (default 10,000); 0 verifies every time. */
  maxCachedTokens?: number;
  now?: () => number;
}

/** Three base64url segments, the header starting `{"`: the shape no API key (`lr_…`) can have. */
export function looksLikeJwt(secret: string): boolean {
  return /^eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(secret);
}

export class WalletTokens {
  private readonly secret: Uint8Array;
  readonly ttlSeconds: number;
  private readonly clockToleranceS: number;
  private readonly now: () => number;
  private readonly maxCachedTokens: number;
  /**
   * Tokens already verified, so a warm request costs a map lookup instead of an HMAC through WebCrypto
   * (~0.2-0.3 ms measured). A token is immutable: only its expiry needs checking again, and revocation is
   * checked against the principal on every request anyway.
   */
  private readonly verified = new Map<string, WalletClaims>();

  constructor(options: WalletTokenOptions) {
    if (options.secret.length < MIN_WALLET_JWT_SECRET_BYTES)
      throw new Error(`the wallet JWT secret must be at least ${MIN_WALLET_JWT_SECRET_BYTES} bytes`);
    this.secret = options.secret;
    this.ttlSeconds = options.ttlSeconds ?? DEFAULT_WALLET_JWT_TTL_S;
    this.clockToleranceS = options.clockToleranceS ?? 30;
    this.now = options.now ?? Date.now;
    this.maxCachedTokens = options.maxCachedTokens ?? 10_000;
  }

  async issue(claims: Omit<WalletClaims, "jti" | "issuedAt" | "expiresAt">): Promise<IssuedWalletToken> {
    const issuedAt = Math.floor(this.now() / 1000);
    const expiresAt = issuedAt + this.ttlSeconds;
    const jti = randomUUID();
    const jwt = await new SignJWT({
      tenant_id: claims.tenantId,
      key_id: claims.keyId,
      tv: claims.tokenVersion,
    })
      .setProtectedHeader({ alg: WALLET_JWT_ALGORITHM, typ: "JWT" })
      .setSubject(claims.subject)
      .setIssuer(WALLET_JWT_ISSUER)
      .setAudience(WALLET_JWT_AUDIENCE)
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAt)
      .setJti(jti)
      .sign(this.secret);
    return { jwt, jti, expiresAt: new Date(expiresAt * 1000) };
  }

  /** Verifies signature, algorithm, issuer, audience and lifetime; throws a 401 naming the reason. */
  async verify(token: string): Promise<WalletClaims> {
    const cached = this.verified.get(token);
    if (cached) {
      if (cached.expiresAt + this.clockToleranceS > this.now() / 1000) return cached;
      this.verified.delete(token);
      throw walletTokenError("jwt_expired");
    }
    const claims = await this.verifyFully(token);
    this.remember(token, claims);
    return claims;
  }

  private remember(token: string, claims: WalletClaims): void {
    if (this.maxCachedTokens === 0) return;
    if (this.verified.size >= this.maxCachedTokens) {
      // Insertion order: the first key is the oldest entry.
      const oldest = this.verified.keys().next().value;
      if (oldest !== undefined) this.verified.delete(oldest);
    }
    this.verified.set(token, claims);
  }

  private async verifyFully(token: string): Promise<WalletClaims> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.secret, {
        algorithms: [WALLET_JWT_ALGORITHM],
        issuer: WALLET_JWT_ISSUER,
        audience: WALLET_JWT_AUDIENCE,
        requiredClaims: ["sub", "iat", "exp", "jti"],
        clockTolerance: this.clockToleranceS,
        currentDate: new Date(this.now()),
      }));
    } catch (error) {
      throw walletTokenError(failureOf(error));
    }
    return claimsOf(payload);
  }
}

function failureOf(error: unknown): WalletTokenFailure {
  if (error instanceof errors.JWTExpired) return "jwt_expired";
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported)
    return "jwt_algorithm_not_allowed";
  if (error instanceof errors.JWSSignatureVerificationFailed) return "jwt_signature_invalid";
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === "iss") return "jwt_issuer_mismatch";
    if (error.claim === "aud") return "jwt_audience_mismatch";
    return "jwt_claims_invalid";
  }
  return "jwt_malformed";
}

function claimsOf(payload: JWTPayload): WalletClaims {
  const { sub, jti, iat, exp, tenant_id, key_id, tv } = payload;
  if (
    typeof sub !== "string" ||
    typeof jti !== "string" ||
    typeof iat !== "number" ||
    typeof exp !== "number" ||
    typeof tenant_id !== "string" ||
    typeof key_id !== "string" ||
    typeof tv !== "number" ||
    !Number.isInteger(tv) ||
    tv < 0
  )
    throw walletTokenError("jwt_claims_invalid");
  return {
    subject: sub,
    tenantId: tenant_id,
    keyId: key_id,
    tokenVersion: tv,
    jti,
    issuedAt: iat,
    expiresAt: exp,
  };
}
