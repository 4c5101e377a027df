import { ConfigError } from "@gw/config";
import { describe, expect, it } from "vitest";
import { serviceAuthFromConfig } from "./service-auth.js";
import {
  generateServiceKeys,
  parseServicePrivateKey,
  parseServicePublicKeys,
  publicKeyList,
  type ServiceName,
} from "./service-keys.js";
import { ServiceAuthError, ServiceTokenIssuer, ServiceTokenVerifier } from "./service-tokens.js";

const keys = generateServiceKeys();
const publicKeys = parseServicePublicKeys(publicKeyList(keys));
const issuerFor = (name: ServiceName, now?: () => number) =>
  new ServiceTokenIssuer(name, parseServicePrivateKey(keys[name].privateKey), now ? { now } : {});

async function reasonOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ServiceAuthError) return error.reason;
    throw error;
  }
  return "accepted";
}

describe("service tokens", () => {
  it("a token signed by the edge for keys is accepted by keys as the edge's", async () => {
    const token = await issuerFor("edge").tokenFor("keys");
    expect(await new ServiceTokenVerifier("keys", publicKeys).verify(token)).toBe("edge");
  });

  it("refuses a missing token, another audience's, a forged signature and garbage", async () => {
    const verifier = new ServiceTokenVerifier("keys", publicKeys);
    expect(await reasonOf(verifier.verify(undefined))).toBe("missing");
    expect(await reasonOf(verifier.verify(await issuerFor("edge").tokenFor("billing")))).toBe(
      "wrong_audience",
    );
    // Signed with billing's key but claiming to be the edge.
    const forger = new ServiceTokenIssuer("edge", parseServicePrivateKey(keys.billing.privateKey));
    expect(await reasonOf(verifier.verify(await forger.tokenFor("keys")))).toBe("bad_signature");
    expect(await reasonOf(verifier.verify("not.a.token"))).toBe("malformed");
  });

  it("refuses an issuer whose key the verifier does not hold", async () => {
    const onlyEdge = new Map([["edge" as ServiceName, publicKeys.get("edge") ?? fail()]]);
    const token = await issuerFor("billing").tokenFor("keys");
    expect(await reasonOf(new ServiceTokenVerifier("keys", onlyEdge).verify(token))).toBe("unknown_issuer");
  });

  it("refuses an expired token, also once it was cached as valid", async () => {
    let now = Date.UTC(2026, 0, 1);
    const token = await issuerFor("edge", () => now).tokenFor("keys");
    const verifier = new ServiceTokenVerifier("keys", publicKeys, { now: () => now });
    expect(await verifier.verify(token)).toBe("edge");
    now += 10 * 60 * 1000;
    expect(verifier.cachedIssuer(token)).toBeUndefined();
    expect(await reasonOf(verifier.verify(token))).toBe("expired");
  });

  it("reuses one token per audience until it nears expiry, then signs the next", async () => {
    let now = Date.UTC(2026, 0, 1);
    const issuer = issuerFor("edge", () => now);
    const first = await issuer.tokenFor("keys");
    expect(await issuer.tokenFor("keys")).toBe(first);
    expect(await issuer.tokenFor("billing")).not.toBe(first);
    now += 250 * 1000; // inside the last minute of a 300 s token: still served, a new one is signed
    expect(issuer.cached("keys")).toBe(first);
    now += 1000;
    await expect.poll(() => issuer.cached("keys")).not.toBe(first);
  });
});

describe("service auth configuration", () => {
  const env = (name: ServiceName) => ({
    SERVICE_AUTH_PRIVATE_KEY: keys[name].privateKey,
    SERVICE_AUTH_PUBLIC_KEYS: publicKeyList(keys),
  });

  it("builds an app's issuer and verifier from its variables", () => {
    const auth = serviceAuthFromConfig("billing", env("billing"));
    expect(auth.issuer.identity).toBe("billing");
    expect(auth.verifier.audience).toBe("billing");
  });

  it("names the missing variable, and a private key that belongs to another app", () => {
    expect(() => serviceAuthFromConfig("keys", {})).toThrow(ConfigError);
    expect(() => serviceAuthFromConfig("keys", {})).toThrow(/SERVICE_AUTH_PRIVATE_KEY: required/);
    expect(() => serviceAuthFromConfig("keys", env("edge"))).toThrow(/does not match the keys entry/);
  });

  it("refuses malformed lists without echoing the key", () => {
    expect(() => parseServicePublicKeys("edge=abc")).toThrow(/32 bytes/);
    expect(() => parseServicePublicKeys(`robot=${keys.edge.publicKey}`)).toThrow(/unknown service "robot"/);
    expect(() => parseServicePrivateKey("%%%")).toThrow(/not base64url/);
  });
});

function fail(): never {
  throw new Error("missing key");
}
