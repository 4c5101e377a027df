import type { ServiceAccount, VertexCredential } from "@gw/http";
import { importPKCS8, SignJWT } from "jose";
import { httpFailure, networkFailure, type UpstreamFailure } from "../failure.js";
import { isFailure, UpstreamHttp } from "../http.js";
import type { UpstreamTimeouts } from "../settings.js";

// Google's OAuth 2.0 service-account flow (developers.google.com/identity/protocols/oauth2/service-account):
// POST token_uri, form `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer&assertion=<RS256 JWT>`; the
// JWT carries iss = client_email, scope, aud = token_uri, iat and exp (at most an hour later); the answer
// is `{access_token, expires_in, token_type: "Bearer"}`.
const GRANT_TYPE = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const SCOPE = "https://www.googleapis.com/auth/cloud-platform";
const ASSERTION_LIFETIME_S = 3600;
/** A token is renewed this long before Google's expiry, so no call is sent with one about to lapse. */
export const REFRESH_MARGIN_MS = 5 * 60_000;

export interface AccessToken {
  readonly token: string;
  /** Epoch ms after which it is not used (Infinity for an explicit token). */
  readonly renewAt: number;
}

/**
 * The bearer token for Vertex calls. An explicit token is used as is; a service account's is fetched once,
 * kept until REFRESH_MARGIN_MS before it expires, and renewed by one exchange however many calls wait
 * for it (concurrent refreshes are coalesced). A failed exchange is not cached: the next call tries again.
 */
export class VertexTokens {
  private current: AccessToken | undefined;
  private pending: Promise<AccessToken | UpstreamFailure> | undefined;
  private signingKey: ReturnType<typeof importPKCS8> | undefined;
  private readonly http: UpstreamHttp | undefined;

  constructor(
    private readonly credential: VertexCredential,
    timeouts: UpstreamTimeouts,
    private readonly now: () => number = Date.now,
  ) {
    if (credential.kind === "token")
      this.current = { token: credential.token, renewAt: Number.POSITIVE_INFINITY };
    else this.http = new UpstreamHttp(new URL(credential.account.tokenUri).origin, timeouts);
  }

  /** A usable token, or why none could be had (the token endpoint's refusal or silence). */
  async get(): Promise<string | UpstreamFailure> {
    const current = this.current;
    if (current && this.now() < current.renewAt) return current.token;
    this.pending ??= this.exchange()
      .catch((error: unknown) => unsignable(error))
      .finally(() => {
        this.pending = undefined;
      });
    const result = await this.pending;
    return "retryable" in result ? result : result.token;
  }

  /** Vertex refused this token (revoked, or expired early): the next call exchanges a new one. */
  invalidate(token: string): void {
    if (this.credential.kind === "service-account" && this.current?.token === token) this.current = undefined;
  }

  async close(): Promise<void> {
    await this.http?.close();
  }

  private async exchange(): Promise<AccessToken | UpstreamFailure> {
    if (this.credential.kind === "token" || !this.http)
      return networkFailure("protocol", "no token to renew");
    const account = this.credential.account;
    const assertion = await this.assertion(account);
    const url = new URL(account.tokenUri);
    // The exchange serves every waiting call, so no single client's disconnect may cancel it.
    const signals = this.http.signals(new AbortController().signal);
    const response = await this.http.send(
      {
        method: "POST",
        path: `${url.pathname}${url.search}`,
        rooted: true,
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
        body: new URLSearchParams({ grant_type: GRANT_TYPE, assertion }).toString(),
      },
      signals,
    );
    if (isFailure(response)) return response;
    let json: Record<string, unknown>;
    try {
      json = (await response.body.json()) as Record<string, unknown>;
    } catch {
      return networkFailure("protocol", "the Google token endpoint sent a malformed answer");
    }
    if (response.status !== 200 || typeof json.access_token !== "string") {
      // OAuth's error body: {error: "invalid_grant", error_description: "Invalid JWT Signature."}.
      const why = [json.error, json.error_description].filter((part) => typeof part === "string").join(": ");
      // A refused grant is the gateway's credential failing, never the caller's request: a 401 (tried
      // elsewhere, never relayed as the caller's 400); the endpoint's own 429/5xx keep their status.
      const status = response.status === 429 || response.status >= 500 ? response.status : 401;
      return httpFailure(
        status,
        `the Google token exchange failed${why ? ` (${why})` : ""}`,
        "token_exchange_failed",
      );
    }
    const lifetimeMs = (typeof json.expires_in === "number" ? json.expires_in : 3600) * 1000;
    const token = { token: json.access_token, renewAt: this.now() + lifetimeMs - REFRESH_MARGIN_MS };
    this.current = token;
    return token;
  }

  private async assertion(account: ServiceAccount): Promise<string> {
    this.signingKey ??= importPKCS8(account.privateKey, "RS256");
    const issuedAt = Math.floor(this.now() / 1000);
    return new SignJWT({ scope: SCOPE })
      .setProtectedHeader({
        alg: "RS256",
        typ: "JWT",
        ...(account.privateKeyId ? { kid: account.privateKeyId } : {}),
      })
      .setIssuer(account.clientEmail)
      .setAudience(account.tokenUri)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + ASSERTION_LIFETIME_S)
      .sign(await this.signingKey);
  }
}

/** The key could not sign (not RS256-capable PKCS#8): the gateway's configuration, not Google, is at fault. */
function unsignable(error: unknown): UpstreamFailure {
  const failure = networkFailure(
    "protocol",
    `the Vertex service-account key cannot sign a token request (${error instanceof Error ? error.name : "error"})`,
  );
  return { ...failure, gatewayFault: true };
}
