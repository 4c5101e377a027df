import { createHmac, generateKeyPairSync, randomBytes } from "node:crypto";
import { GatewayError } from "@gw/errors";
import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { looksLikeServiceKey } from "./credentials.js";
import {
  looksLikeJwt,
  WALLET_JWT_AUDIENCE,
  WALLET_JWT_ISSUER,
  type WalletTokenFailure,
  WalletTokens,
} from "./wallet-token.js";

const SECRET = randomBytes(32);
const CLAIMS = {
  subject: "eip155:8453:0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
  tenantId: "acct_wallet",
  keyId: "a".repeat(64),
  tokenVersion: 0,
};

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

/** A token built field by field, so each test can get exactly one thing wrong. */
function forged(overrides: { iss?: string; aud?: string; exp?: number; key?: Uint8Array } = {}) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ tenant_id: CLAIMS.tenantId, key_id: CLAIMS.keyId, tv: 0 })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(CLAIMS.subject)
    .setIssuer(overrides.iss ?? WALLET_JWT_ISSUER)
    .setAudience(overrides.aud ?? WALLET_JWT_AUDIENCE)
    .setIssuedAt(now - 10)
    .setExpirationTime(overrides.exp ?? now + 600)
    .setJti("j-1")
    .sign(overrides.key ?? SECRET);
}

async function refusal(tokens: WalletTokens, token: string): Promise<WalletTokenFailure> {
  try {
    await tokens.verify(token);
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayError);
    const gatewayError = error as GatewayError;
    expect(gatewayError.status).toBe(401);
    expect(gatewayError.metadata?.reason).toBe(gatewayError.code);
    return gatewayError.code as WalletTokenFailure;
  }
  throw new Error("the token was accepted");
}

describe("WalletTokens", () => {
  const tokens = new WalletTokens({ secret: SECRET, ttlSeconds: 3_600 });

  it("issues a JWT with every claim the spec names and verifies it back", async () => {
    const before = Math.floor(Date.now() / 1000);
    const issued = await tokens.issue(CLAIMS);
    const [header, payload] = issued.jwt
      .split(".")
      .slice(0, 2)
      .map((part) => JSON.parse(Buffer.from(part, "base64url").toString()));
    expect(header).toMatchObject({ alg: "HS256", typ: "JWT" });
    expect(payload).toMatchObject({
      sub: CLAIMS.subject,
      tenant_id: CLAIMS.tenantId,
      key_id: CLAIMS.keyId,
      iss: WALLET_JWT_ISSUER,
      aud: WALLET_JWT_AUDIENCE,
      jti: issued.jti,
    });
    expect(payload.exp - payload.iat).toBe(3_600);
    expect(payload.iat).toBeGreaterThanOrEqual(before);
    expect(issued.expiresAt.getTime()).toBe(payload.exp * 1000);
    await expect(tokens.verify(issued.jwt)).resolves.toMatchObject({ ...CLAIMS, jti: issued.jti });
  });

  it("gives each token its own jti", async () => {
    const [a, b] = await Promise.all([tokens.issue(CLAIMS), tokens.issue(CLAIMS)]);
    expect(a.jti).not.toBe(b.jti);
  });

  it("refuses a token signed with another secret", async () => {
    expect(await refusal(tokens, await forged({ key: randomBytes(32) }))).toBe("jwt_signature_invalid");
  });

  it("refuses a token whose signature was cut short", async () => {
    const token = (await tokens.issue(CLAIMS)).jwt;
    expect(await refusal(tokens, token.slice(0, -4))).toBe("jwt_signature_invalid");
  });

  it("refuses alg none", async () => {
    const now = Math.floor(Date.now() / 1000);
    const payload = {
      sub: CLAIMS.subject,
      iss: WALLET_JWT_ISSUER,
      aud: WALLET_JWT_AUDIENCE,
      iat: now,
      exp: now + 60,
      jti: "x",
    };
    const token = `${base64url({ alg: "none", typ: "JWT" })}.${base64url(payload)}.`;
    expect(looksLikeJwt(token)).toBe(true);
    expect(await refusal(tokens, token)).toBe("jwt_algorithm_not_allowed");
  });

  it("refuses an RS256 token (HS/RS confusion) and an HS512 one", async () => {
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const now = Math.floor(Date.now() / 1000);
    const rs = await new SignJWT({ tenant_id: CLAIMS.tenantId, key_id: CLAIMS.keyId, tv: 0 })
      .setProtectedHeader({ alg: "RS256" })
      .setSubject(CLAIMS.subject)
      .setIssuer(WALLET_JWT_ISSUER)
      .setAudience(WALLET_JWT_AUDIENCE)
      .setIssuedAt(now)
      .setExpirationTime(now + 60)
      .setJti("r")
      .sign(privateKey);
    expect(await refusal(tokens, rs)).toBe("jwt_algorithm_not_allowed");
    const hs512 = await new SignJWT({ tenant_id: CLAIMS.tenantId, key_id: CLAIMS.keyId, tv: 0 })
      .setProtectedHeader({ alg: "HS512" })
      .setSubject(CLAIMS.subject)
      .setIssuer(WALLET_JWT_ISSUER)
      .setAudience(WALLET_JWT_AUDIENCE)
      .setIssuedAt(now)
      .setExpirationTime(now + 60)
      .setJti("h")
      .sign(randomBytes(64));
    expect(await refusal(tokens, hs512)).toBe("jwt_algorithm_not_allowed");
  });

  it("refuses another issuer and another audience", async () => {
    expect(await refusal(tokens, await forged({ iss: "someone-else" }))).toBe("jwt_issuer_mismatch");
    expect(await refusal(tokens, await forged({ aud: "another-api" }))).toBe("jwt_audience_mismatch");
  });

  it("refuses an expired token, beyond the clock tolerance", async () => {
    const now = Math.floor(Date.now() / 1000);
    expect(await refusal(tokens, await forged({ exp: now - 31 }))).toBe("jwt_expired");
  });

  it("expires a token it issued once its lifetime has passed", async () => {
    let now = Date.now();
    const clocked = new WalletTokens({ secret: SECRET, ttlSeconds: 60, clockToleranceS: 0, now: () => now });
    const issued = await clocked.issue(CLAIMS);
    now += 61_000;
    expect(await refusal(clocked, issued.jwt)).toBe("jwt_expired");
  });

  it("remembers a verified token but still expires it on time, and never remembers a refused one", async () => {
    let now = Date.now();
    const clocked = new WalletTokens({ secret: SECRET, ttlSeconds: 60, clockToleranceS: 0, now: () => now });
    const issued = await clocked.issue(CLAIMS);
    await expect(clocked.verify(issued.jwt)).resolves.toMatchObject({ jti: issued.jti });
    await expect(clocked.verify(issued.jwt)).resolves.toMatchObject({ jti: issued.jti });
    now += 60_000;
    expect(await refusal(clocked, issued.jwt)).toBe("jwt_expired");
    expect(await refusal(clocked, issued.jwt)).toBe("jwt_expired");
    const forgedToken = await forged({ key: randomBytes(32) });
    expect(await refusal(tokens, forgedToken)).toBe("jwt_signature_invalid");
    expect(await refusal(tokens, forgedToken)).toBe("jwt_signature_invalid");
  });

  it("refuses a correctly signed token whose payload is not JSON", async () => {
    const signed = `${base64url({ alg: "HS256" })}.${Buffer.from("not json").toString("base64url")}`;
    const signature = createHmac("sha256", SECRET).update(signed).digest("base64url");
    expect(await refusal(tokens, `${signed}.${signature}`)).toBe("jwt_malformed");
  });

  it("refuses a secret shorter than 32 bytes", () => {
    expect(() => new WalletTokens({ secret: randomBytes(16) })).toThrow(/32 bytes/);
  });
});

describe("looksLikeJwt", () => {
  it("tells JWTs and API keys apart by shape", async () => {
    const jwt = (await new WalletTokens({ secret: SECRET }).issue(CLAIMS)).jwt;
    const key = `lr_live_${"ab".repeat(24)}`;
    expect(looksLikeJwt(jwt)).toBe(true);
    expect(looksLikeServiceKey(jwt)).toBe(false);
    expect(looksLikeJwt(key)).toBe(false);
    expect(looksLikeJwt("sk-abc.def.ghi")).toBe(false);
  });
});
