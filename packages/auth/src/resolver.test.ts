import { encodeKeyChange, InProcessEventBus } from "@gw/events";
import { type AuthenticateResponse, AuthFailureReason, type Principal } from "@gw/proto/keys/v1/keys";
import { describe, expect, it } from "vitest";
import { hashSecret } from "./credentials.js";
import { PrincipalResolver } from "./resolver.js";
import { testPrincipal } from "./test-principal.js";

const SECRET = `lr_live_${"cd".repeat(24)}`;
const HASH = hashSecret(SECRET);

const principal = (overrides: Partial<Principal> = {}): Principal =>
  testPrincipal({ keyHash: HASH, label: "lr_live_cdc...cdcd", ...overrides });

/** A scripted KeyService that counts calls: the resolver's caching is what is under test. */
function scripted(answers: Array<() => AuthenticateResponse>) {
  let calls = 0;
  return {
    authenticate: async () => {
      const answer = answers[Math.min(calls, answers.length - 1)];
      calls++;
      if (!answer) throw new Error("no answer scripted");
      return answer();
    },
    calls: () => calls,
  };
}

const ok = (p: Principal): AuthenticateResponse => ({
  result: { $case: "principal", value: p },
  cacheTtlMs: 5_000,
});
const fail = (reason: AuthFailureReason): AuthenticateResponse => ({
  result: { $case: "failure", value: reason },
  cacheTtlMs: 0,
});

describe("PrincipalResolver", () => {
  it("caches a positive answer and shares concurrent lookups", async () => {
    const service = scripted([() => ok(principal())]);
    const resolver = new PrincipalResolver(service.authenticate);
    const results = await Promise.all([resolver.resolveSecret(SECRET), resolver.resolveSecret(SECRET)]);
    await resolver.resolveSecret(SECRET);
    expect(results[0]?.accountId).toBe("acct_1");
    expect(service.calls()).toBe(1);
  });

  it("refetches after the TTL bound", async () => {
    let now = 1_000;
    const service = scripted([() => ok(principal())]);
    const resolver = new PrincipalResolver(service.authenticate, { maxTtlMs: 100, now: () => now });
    await resolver.resolveSecret(SECRET);
    now += 101;
    await resolver.resolveSecret(SECRET);
    expect(service.calls()).toBe(2);
  });

  it("negatively caches unknown keys briefly", async () => {
    let now = 0;
    const service = scripted([() => fail(AuthFailureReason.AUTH_FAILURE_REASON_KEY_NOT_FOUND)]);
    const resolver = new PrincipalResolver(service.authenticate, { negativeTtlMs: 50, now: () => now });
    for (let i = 0; i < 20; i++)
      await expect(resolver.resolveSecret(SECRET)).rejects.toMatchObject({ code: "key_not_found" });
    expect(service.calls()).toBe(1);
    now += 51;
    await expect(resolver.resolveSecret(SECRET)).rejects.toMatchObject({ code: "key_not_found" });
    expect(service.calls()).toBe(2);
  });

  it("rejects malformed secrets without calling the key service", async () => {
    const service = scripted([() => ok(principal())]);
    const resolver = new PrincipalResolver(service.authenticate);
    await expect(resolver.resolveSecret("sk-not-ours")).rejects.toMatchObject({
      status: 401,
      code: "key_not_found",
    });
    expect(service.calls()).toBe(0);
  });

  it("checks expiry on every request, not when the cache entry lapses", async () => {
    let now = 10_000;
    const service = scripted([() => ok(principal({ expiresAt: new Date(10_500) }))]);
    const resolver = new PrincipalResolver(service.authenticate, { now: () => now });
    await expect(resolver.resolveSecret(SECRET)).resolves.toBeDefined();
    now = 10_500;
    await expect(resolver.resolveSecret(SECRET)).rejects.toMatchObject({ status: 401, code: "key_expired" });
    expect(service.calls()).toBe(1);
  });

  it("maps disabled keys to key_disabled", async () => {
    const service = scripted([() => ok(principal({ disabled: true }))]);
    const resolver = new PrincipalResolver(service.authenticate);
    await expect(resolver.resolveSecret(SECRET)).rejects.toMatchObject({
      message: "invalid api key",
      code: "key_disabled",
    });
  });

  it("drops the cached principal when a key-change event arrives", async () => {
    const service = scripted([
      () => ok(principal()),
      () => fail(AuthFailureReason.AUTH_FAILURE_REASON_KEY_DISABLED),
    ]);
    const resolver = new PrincipalResolver(service.authenticate);
    const bus = new InProcessEventBus();
    const subscription = await resolver.subscribeToKeyChanges(bus, "keys.changes", "edge-a");
    await resolver.resolveSecret(SECRET);
    const event = encodeKeyChange({ keyHash: HASH, accountId: "acct_1", change: "disabled" });
    bus.publish("keys.changes", event.key, event.value, event.headers);
    await expect.poll(() => resolver.size()).toBe(0);
    await expect(resolver.resolveSecret(SECRET)).rejects.toMatchObject({ code: "key_disabled" });
    await subscription.stop();
    await bus.close();
  });

  it("does not cache an answer that a key change overtook while it was in flight", async () => {
    let release: (answer: AuthenticateResponse) => void = () => {};
    let calls = 0;
    const resolver = new PrincipalResolver(() => {
      calls++;
      if (calls === 1) return new Promise<AuthenticateResponse>((resolve) => (release = resolve));
      return Promise.resolve(fail(AuthFailureReason.AUTH_FAILURE_REASON_KEY_DISABLED));
    });
    const before = resolver.resolveSecret(SECRET);
    await Promise.resolve();
    resolver.invalidate(HASH);
    release(ok(principal()));
    await expect(before).resolves.toMatchObject({ accountId: "acct_1" });
    expect(resolver.size()).toBe(0);
    await expect(resolver.resolveSecret(SECRET)).rejects.toMatchObject({ code: "key_disabled" });
    expect(calls).toBe(2);
  });

  it("turns an unreachable key service into a 503", async () => {
    const resolver = new PrincipalResolver(async () => {
      throw new Error("connect ECONNREFUSED");
    });
    await expect(resolver.resolveSecret(SECRET)).rejects.toMatchObject({ status: 503 });
  });
});
