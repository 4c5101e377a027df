import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { importSPKI, type JWTPayload, jwtVerify } from "jose";
import { readBody, sendJson } from "../core/http.js";

// A fake of Google's OAuth 2.0 token endpoint for service accounts
// (developers.google.com/identity/protocols/oauth2/service-account, "Making the access token request"):
// `POST` form `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer&assertion=<JWT>`; the JWT is RS256,
// signed with the account's private key, `iss` = client_email, `aud` = the token URI, `scope`, `iat`, and
// `exp` at most one hour after `iat`. Refusals are OAuth's `{error, error_description}` with HTTP 400
// (invalid_grant for a bad signature, unknown account or bad times; unsupported_grant_type).

const GRANT_TYPE = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const MAX_LIFETIME_S = 3600;

/** A service account the fake knows: its email and the public half of its key (SPKI PEM). */
export interface FakeServiceAccount {
  readonly clientEmail: string;
  readonly publicKeyPem: string;
}

export interface IssuedToken {
  readonly clientEmail: string;
  expiresAtMs: number;
}

export interface TokenEndpoint {
  readonly url: string;
  /** How many tokens it issued (a test of caching counts them). */
  issued(): number;
  close(): Promise<void>;
}

export async function startTokenEndpoint(
  host: string,
  accounts: readonly FakeServiceAccount[],
  tokens: Map<string, IssuedToken>,
  lifetimeSeconds: number,
): Promise<TokenEndpoint> {
  let issued = 0;
  let url = "";
  const server: Server = createServer((req, res) => {
    void (async () => {
      const form = new URLSearchParams(await readBody(req));
      if (req.method !== "POST" || new URL(req.url ?? "/", "http://x").pathname !== "/token")
        return sendJson(res, 404, { error: "not_found", error_description: "Not Found" });
      if (form.get("grant_type") !== GRANT_TYPE)
        return oauthError(
          res,
          "unsupported_grant_type",
          `Invalid grant_type: ${form.get("grant_type") ?? ""}`,
        );
      const refusal = await verifyAssertion(form.get("assertion") ?? "", accounts, url);
      if (typeof refusal === "string") return oauthError(res, "invalid_grant", refusal);
      const token = `ya29.fake-${randomBytes(24).toString("base64url")}`;
      tokens.set(token, { clientEmail: refusal.iss ?? "", expiresAtMs: Date.now() + lifetimeSeconds * 1000 });
      issued++;
      sendJson(res, 200, { access_token: token, expires_in: lifetimeSeconds, token_type: "Bearer" });
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  url = `http://${host}:${(server.address() as AddressInfo).port}/token`;
  return {
    url,
    issued: () => issued,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The verified claims, or Google's error description. */
async function verifyAssertion(
  assertion: string,
  accounts: readonly FakeServiceAccount[],
  audience: string,
): Promise<JWTPayload | string> {
  const [, payloadPart] = assertion.split(".");
  let claims: JWTPayload;
  try {
    claims = JSON.parse(Buffer.from(payloadPart ?? "", "base64url").toString("utf8")) as JWTPayload;
  } catch {
    return "Invalid JWT: could not be parsed.";
  }
  const account = accounts.find((entry) => entry.clientEmail === claims.iss);
  if (!account) return "Invalid grant: account not found";
  try {
    const { payload } = await jwtVerify(assertion, await importSPKI(account.publicKeyPem, "RS256"), {
      algorithms: ["RS256"],
      audience,
      issuer: account.clientEmail,
    });
    if (
      typeof payload.iat !== "number" ||
      typeof payload.exp !== "number" ||
      payload.exp - payload.iat > MAX_LIFETIME_S
    )
      return "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.";
    if (
      typeof payload.scope !== "string" ||
      !payload.scope.includes("https://www.googleapis.com/auth/cloud-platform")
    )
      return "Invalid OAuth scope or ID token audience provided.";
    return payload;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (
      code === "ERR_JWT_EXPIRED" ||
      (code === "ERR_JWT_CLAIM_VALIDATION_FAILED" && (error as { claim?: string }).claim === "iat")
    )
      return "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.";
    if (code === "ERR_JWT_CLAIM_VALIDATION_FAILED") return "Invalid JWT: Failed audience check.";
    return "Invalid JWT Signature.";
  }
}

function oauthError(res: Parameters<typeof sendJson>[0], error: string, description: string): void {
  sendJson(res, 400, { error, error_description: description });
}
