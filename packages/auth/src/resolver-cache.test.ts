import {
  type AuthenticateRequest,
  type AuthenticateResponse,
  AuthFailureReason,
  type Principal,
} from "@gw/proto/keys/v1/keys";
import { describe, expect, it } from "vitest";
import { hashSecret } from "./credentials.js";
import { PrincipalResolver } from "./resolver.js";
import { testPrincipal } from "./test-principal.js";

// The resolver's cache bounds and in-flight bookkeeping: how many Authenticate calls reach the key
// service, and which answers each request gets.

const secret = (n: number): string => `lr_live_${n.toString(16).padStart(2, "0").repeat(24)}`;

const principal = (keyHash: string): Principal => testPrincipal({ keyHash });

/** A key service that knows every key, answers with the given TTL and records each request. */
function keyService(cacheTtlMs = 5_000) {
  const requests: AuthenticateRequest[] = [];
  const authenticate = async (request: AuthenticateRequest): Promise<AuthenticateResponse> => {
    requests.push(request);
    return { result: { $case: "principal", value: principal(request.keyHash) }, cacheTtlMs };
  };
  return { authenticate, requests };
}

/** A key service whose answers wait until the test releases them, in order. */
function heldKeyService() {
  const held: Array<() => void> = [];
  const authenticate = async (request: AuthenticateRequest): Promise<AuthenticateResponse> => {
    await new Promise<void>((resolve) => held.push(resolve));
    return { result: { $case: "principal", value: principal(request.keyHash) }, cacheTtlMs: 5_000 };
  };
  return { authenticate, held };
}

describe("PrincipalResolver cache", () => {
  it("sends the key service the secret's sha256, never the secret", async () => {
    const service = keyService();
    await new PrincipalResolver(service.authenticate).resolveSecret(secret(1));
    expect(service.requests).toEqual([{ keyHash: hashSecret(secret(1)) }]);
  });

  it("asks again exactly when the TTL bound is reached", async () => {
    let now = 1_000;
    const service = keyService();
    const resolver = new PrincipalResolver(service.authenticate, { maxTtlMs: 100, now: () => now });
    await resolver.resolveSecret(secret(1));
    now += 99;
    await resolver.resolveSecret(secret(1));
    expect(service.requests).toHaveLength(1);
    now += 1;
    await resolver.resolveSecret(secret(1));
    expect(service.requests).toHaveLength(2);
  });

  it("honours a key service TTL shorter than the bound, and the bound when the service sends none", async () => {
    let now = 0;
    const short = keyService(50);
    const resolver = new PrincipalResolver(short.authenticate, { maxTtlMs: 1_000, now: () => now });
    await resolver.resolveSecret(secret(1));
    now = 50;
    await resolver.resolveSecret(secret(1));
    expect(short.requests).toHaveLength(2);

    now = 0;
    const none = keyService(0);
    const bounded = new PrincipalResolver(none.authenticate, { maxTtlMs: 1_000, now: () => now });
    await bounded.resolveSecret(secret(1));
    now = 999;
    await bounded.resolveSecret(secret(1));
    expect(none.requests).toHaveLength(1);
  });

  it("evicts the oldest entry once maxEntries keys are cached", async () => {
    const service = keyService();
    const resolver = new PrincipalResolver(service.authenticate, { maxEntries: 2 });
    for (const n of [1, 2, 3]) await resolver.resolveSecret(secret(n));
    expect(resolver.size()).toBe(2);
    await resolver.resolveSecret(secret(3)); // newest: still cached
    await resolver.resolveSecret(secret(2)); // still cached
    expect(service.requests).toHaveLength(3);
    await resolver.resolveSecret(secret(1)); // the oldest was evicted: asked again
    expect(service.requests).toHaveLength(4);
  });

  it("clear() drops every entry", async () => {
    const service = keyService();
    const resolver = new PrincipalResolver(service.authenticate);
    await resolver.resolveSecret(secret(1));
    resolver.clear();
    expect(resolver.size()).toBe(0);
    await resolver.resolveSecret(secret(1));
    expect(service.requests).toHaveLength(2);
  });

  it("maps every failure reason to the spec's code", async () => {
    const cases: Array<[AuthFailureReason, string]> = [
      [AuthFailureReason.AUTH_FAILURE_REASON_UNSPECIFIED, "key_not_found"],
      [AuthFailureReason.AUTH_FAILURE_REASON_KEY_NOT_FOUND, "key_not_found"],
      [AuthFailureReason.AUTH_FAILURE_REASON_KEY_DISABLED, "key_disabled"],
      [AuthFailureReason.AUTH_FAILURE_REASON_KEY_EXPIRED, "key_expired"],
      [AuthFailureReason.UNRECOGNIZED, "key_not_found"],
    ];
    for (const [reason, code] of cases) {
      const resolver = new PrincipalResolver(async () => ({
        result: { $case: "failure", value: reason },
        cacheTtlMs: 0,
      }));
      await expect(resolver.resolveSecret(secret(1))).rejects.toMatchObject({ status: 401, code });
    }
  });

  it("treats an answer with neither principal nor failure as an unknown key", async () => {
    const resolver = new PrincipalResolver(async () => ({ result: undefined, cacheTtlMs: 0 }));
    await expect(resolver.resolveSecret(secret(1))).rejects.toMatchObject({
      status: 401,
      code: "key_not_found",
    });
  });

  it("names the key service when it is unreachable", async () => {
    const resolver = new PrincipalResolver(async () => {
      throw new Error("connect ECONNREFUSED");
    });
    await expect(resolver.resolveSecret(secret(1))).rejects.toMatchObject({
      status: 503,
      message: "key service is unavailable",
    });
  });

  it("invalidating a key that is neither cached nor in flight is a no-op", async () => {
    const service = keyService();
    const resolver = new PrincipalResolver(service.authenticate);
    await resolver.resolveSecret(secret(1));
    expect(() => resolver.invalidate(hashSecret(secret(2)))).not.toThrow();
    expect(resolver.size()).toBe(1);
  });

  it("after a key change, new lookups ask again instead of joining the overtaken one", async () => {
    const service = heldKeyService();
    const resolver = new PrincipalResolver(service.authenticate);
    const overtaken = resolver.resolveSecret(secret(1));
    await expect.poll(() => service.held.length).toBe(1);
    resolver.invalidate(hashSecret(secret(1)));
    const fresh = resolver.resolveSecret(secret(1));
    await expect.poll(() => service.held.length).toBe(2);

    // The overtaken answer lands first; it must not end the fresh lookup's sharing.
    service.held[0]?.();
    await overtaken;
    const joined = resolver.resolveSecret(secret(1));
    expect(service.held).toHaveLength(2);
    for (const release of service.held) release();
    await Promise.all([fresh, joined]);
    expect(resolver.size()).toBe(1);
  });
});
