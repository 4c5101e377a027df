import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import {
  generateServiceKeys,
  parseServicePrivateKey,
  parseServicePublicKey,
  parseServicePublicKeys,
  publicKeyList,
  type ServiceName,
  serviceAuthEnvFor,
} from "./service-keys.js";
import { ServiceAuthError, ServiceTokenIssuer, ServiceTokenVerifier } from "./service-tokens.js";

// The bounds of service tokens that service-tokens.test.ts does not reach: the verifier's cache (how
// long, how many), the token-age cap, an issuer claim that disagrees with the key, the issuer's refresh
// bounds, and the key formats.
const keys = generateServiceKeys();
const publicKeys = parseServicePublicKeys(publicKeyList(keys));
const T0 = Date.UTC(2026, 0, 1);
const privateKeyOf = (name: ServiceName) => parseServicePrivateKey(keys[name].privateKey);

async function reasonOf(promise: Promise<unknown>): Promise<string> {
  try {
    return `accepted ${await promise}`;
  } catch (error) {
    if (error instanceof ServiceAuthError) return error.reason;
    throw error;
  }
}

/** A token signed with `signer`'s key, its claims as given (a forged or odd token). */
function token(
  signer: ServiceName,
  claims: { kid?: string; iss?: string; iat: number; exp: number; aud?: string },
) {
  const jwt = new SignJWT({}).setProtectedHeader({
    alg: "EdDSA",
    typ: "gw-service+jwt",
    kid: claims.kid ?? signer,
  });
  if (claims.iss !== undefined) jwt.setIssuer(claims.iss);
  return jwt
    .setAudience(claims.aud ?? "keys")
    .setIssuedAt(claims.iat)
    .setExpirationTime(claims.exp)
    .sign(privateKeyOf(signer));
}

describe("the service token verifier's cache", () => {
  it("answers from the cache until expiry plus the clock tolerance, then forgets the token", async () => {
    let now = T0;
    const verifier = new ServiceTokenVerifier("keys", publicKeys, {
      now: () => now,
      clockToleranceSeconds: 10,
    });
    const signed = await token("edge", { iss: "edge", iat: T0 / 1000, exp: T0 / 1000 + 60 });
    expect(verifier.cachedIssuer(signed)).toBeUndefined();
    expect(await verifier.verify(signed)).toBe("edge");
    expect(verifier.cachedIssuer(signed)).toBe("edge");
    now = T0 + 70_000 - 1;
    expect(verifier.cachedIssuer(signed)).toBe("edge");
    now = T0 + 70_000;
    expect(verifier.cachedIssuer(signed)).toBeUndefined();
    // Forgotten: going back in time does not bring it back without a new check.
    now = T0;
    expect(verifier.cachedIssuer(signed)).toBeUndefined();
  });

  it("tolerates 30 s of clock difference by default", async () => {
    let now = T0;
    const verifier = new ServiceTokenVerifier("keys", publicKeys, { now: () => now });
    const signed = await token("edge", { iss: "edge", iat: T0 / 1000, exp: T0 / 1000 + 60 });
    await verifier.verify(signed);
    now = T0 + 90_000 - 1;
    expect(verifier.cachedIssuer(signed)).toBe("edge");
    now = T0 + 90_000;
    expect(verifier.cachedIssuer(signed)).toBeUndefined();
  });

  it("holds at most cacheEntries tokens (256 by default), starting over when full", async () => {
    const verifier = new ServiceTokenVerifier("keys", publicKeys, { now: () => T0, cacheEntries: 2 });
    const tokens = await Promise.all(
      [1, 2, 3].map((second) => token("edge", { iss: "edge", iat: T0 / 1000 - second, exp: T0 / 1000 + 60 })),
    );
    for (const signed of tokens) await verifier.verify(signed);
    expect(tokens.map((signed) => verifier.cachedIssuer(signed))).toEqual([undefined, undefined, "edge"]);
    const byDefault = new ServiceTokenVerifier("keys", publicKeys, { now: () => T0 });
    const many = await Promise.all(
      Array.from({ length: 257 }, (_, index) =>
        token("edge", { iss: "edge", iat: T0 / 1000 - index, exp: T0 / 1000 + 60 }),
      ),
    );
    for (const signed of many.slice(0, 256)) await byDefault.verify(signed);
    expect(byDefault.cachedIssuer(many[0] as string)).toBe("edge");
    await byDefault.verify(many[256] as string);
    expect(byDefault.cachedIssuer(many[0] as string)).toBeUndefined();
  });
});

describe("the service token verifier's refusals", () => {
  const verifier = new ServiceTokenVerifier("keys", publicKeys, { now: () => T0 });

  it("refuses a token older than 15 minutes whatever its expiry, and one issued in the future", async () => {
    const old = await token("edge", { iss: "edge", iat: T0 / 1000 - 15 * 60 - 31, exp: T0 / 1000 + 60 });
    expect(await reasonOf(verifier.verify(old))).toBe("expired");
    const recent = await token("edge", { iss: "edge", iat: T0 / 1000 - 14 * 60, exp: T0 / 1000 + 60 });
    expect(await reasonOf(verifier.verify(recent))).toBe("accepted edge");
    const future = await token("edge", { iss: "edge", iat: T0 / 1000 + 120, exp: T0 / 1000 + 300 });
    expect(await reasonOf(verifier.verify(future))).toBe("expired");
  });

  it("refuses a token whose issuer claim is not the app whose key signed it, or has none", async () => {
    const claimsBilling = await token("edge", { iss: "billing", iat: T0 / 1000, exp: T0 / 1000 + 60 });
    expect(await reasonOf(verifier.verify(claimsBilling))).toBe("unknown_issuer");
    const noIssuer = await token("edge", { iat: T0 / 1000, exp: T0 / 1000 + 60 });
    expect(await reasonOf(verifier.verify(noIssuer))).toBe("malformed");
    const kidOfAnother = await token("edge", {
      kid: "billing",
      iss: "billing",
      iat: T0 / 1000,
      exp: T0 / 1000 + 60,
    });
    expect(await reasonOf(verifier.verify(kidOfAnother))).toBe("bad_signature");
    const otherAudience = await token("edge", {
      iss: "edge",
      aud: "billing",
      iat: T0 / 1000,
      exp: T0 / 1000 + 60,
    });
    expect(await reasonOf(verifier.verify(otherAudience))).toBe("wrong_audience");
    expect(await reasonOf(verifier.verify(""))).toBe("missing");
  });

  it("names the reason in the error's message", () => {
    expect(new ServiceAuthError("expired").message).toBe("service token refused: expired");
  });
});

describe("the service token issuer's refresh", () => {
  it("stops serving a token at its expiry, and starts signing the next one minute before", async () => {
    let now = T0;
    const issuer = new ServiceTokenIssuer("edge", privateKeyOf("edge"), { now: () => now, ttlSeconds: 120 });
    const first = await issuer.tokenFor("keys");
    now = T0 + 60_000;
    // Exactly one minute left: not yet refreshing.
    expect(issuer.cached("keys")).toBe(first);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(issuer.cached("keys")).toBe(first);
    now = T0 + 120_000 - 1;
    expect(issuer.cached("keys")).toBe(first);
    const refreshing = new ServiceTokenIssuer("edge", privateKeyOf("edge"), {
      now: () => now,
      ttlSeconds: 120,
    });
    now = T0;
    const own = await refreshing.tokenFor("keys");
    now = T0 + 120_000;
    expect(refreshing.cached("keys")).toBeUndefined();
    expect(await refreshing.tokenFor("keys")).not.toBe(own);
  });
});

describe("service key formats", () => {
  it("reads a key with surrounding space, standard base64 and padding; nothing else", () => {
    const raw = Buffer.from(keys.edge.publicKey, "base64url");
    const expected = parseServicePublicKey(keys.edge.publicKey);
    expect(parseServicePublicKey(`  ${raw.toString("base64")}\n`).equals(expected)).toBe(true);
    expect(() => parseServicePublicKey(`x${keys.edge.publicKey}`)).toThrow(/must be 32 bytes/);
    expect(() => parseServicePublicKey(`${keys.edge.publicKey}!`)).toThrow(/^a public key is not base64url$/);
    expect(() => parseServicePublicKey(`!${keys.edge.publicKey}`)).toThrow(/^a public key is not base64url$/);
  });

  it("names what is wrong with a public key list, never the key", () => {
    const { edge, keys: keysApp } = keys;
    expect(() => parseServicePublicKeys(`edge=${edge.publicKey},=${keysApp.publicKey}`)).toThrow(
      /^entry 2 is not name=key$/,
    );
    expect(() => parseServicePublicKeys(`edge${edge.publicKey}`)).toThrow(/^entry 1 is not name=key$/);
    expect(() => parseServicePublicKeys(`edge=${edge.publicKey},edge=${keysApp.publicKey}`)).toThrow(
      /^service "edge" is listed twice$/,
    );
    expect(() => parseServicePublicKeys(" , ")).toThrow(/^no public keys listed$/);
    expect(() => parseServicePublicKeys(`x=${edge.publicKey}`)).toThrow(
      /^unknown service "x" \(expected one of edge, keys, billing, generations\)$/,
    );
    expect(parseServicePublicKeys(` edge = ${edge.publicKey} , `).size).toBe(1);
  });

  it("gives an app of a generated set its own private key and everyone's public keys", () => {
    expect(serviceAuthEnvFor("billing", keys)).toEqual({
      SERVICE_AUTH_PRIVATE_KEY: keys.billing.privateKey,
      SERVICE_AUTH_PUBLIC_KEYS: publicKeyList(keys),
    });
  });
});
