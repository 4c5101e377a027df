import { encodeKeyChange, InProcessEventBus } from "@gw/events";
import { silentLogger } from "@gw/logger";
import type { GetProviderCredentialsResponse } from "@gw/proto/keys/v1/keys";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type AccountProviders, ByokProviders } from "./byok-credentials.js";

// The BYOK cache's bounds, beyond byok-credentials.test.ts: how long an answer is reused, which
// credential of a provider wins, when retired adapters are closed, and the byok_changed events that
// drop an account's entry. Adapters are only built, never called (an undici pool connects lazily).
const provider = (id: string) => ({
  id,
  apiFormat: "openai" as const,
  baseUrl: "http://127.0.0.1:9",
  apiKey: undefined,
  isDemo: false,
});
const TIMEOUTS = { connectMs: 1_000, firstByteMs: 1_000, totalMs: 2_000 };
const options = {
  settings: [provider("groq"), provider("mistral")],
  timeouts: TIMEOUTS,
  logger: silentLogger(),
};
const credential = (id: string, providerId: string, position: number) => ({
  id,
  providerId,
  apiKey: `k_${id}`,
  position,
});

function counting(answer: () => GetProviderCredentialsResponse) {
  const asked: string[] = [];
  return {
    source: async (accountId: string) => {
      asked.push(accountId);
      return answer();
    },
    asked,
  };
}
const summary = (providers: AccountProviders) =>
  [...providers].map(([providerId, { credentialId }]) => `${providerId}:${credentialId}`);

afterEach(() => {
  vi.useRealTimers();
});

describe("ByokProviders' cache", () => {
  it("reuses an answer for its cacheTtlMs, capped at maxTtlMs (10 s by default)", async () => {
    let now = 0;
    let ttl = 3_000;
    const service = counting(() => ({ credentials: [credential("b1", "groq", 0)], cacheTtlMs: ttl }));
    const byok = new ByokProviders(service.source, { ...options, now: () => now });
    await byok.forAccount("acct");
    now = 2_999;
    await byok.forAccount("acct");
    expect(service.asked).toHaveLength(1);
    now = 3_000;
    ttl = 60_000;
    await byok.forAccount("acct");
    expect(service.asked).toHaveLength(2);
    now = 3_000 + 9_999;
    await byok.forAccount("acct");
    expect(service.asked).toHaveLength(2);
    now = 3_000 + 10_000;
    ttl = 0;
    await byok.forAccount("acct");
    expect(service.asked).toHaveLength(3);
    // No TTL from the key service: the cap.
    now += 9_999;
    await byok.forAccount("acct");
    expect(service.asked).toHaveLength(3);
    now += 1;
    await byok.forAccount("acct");
    expect(service.asked).toHaveLength(4);
    await byok.close();
  });

  it("remembers a failed lookup for 1 s by default", async () => {
    let now = 0;
    const asked: number[] = [];
    const byok = new ByokProviders(
      async () => {
        asked.push(now);
        throw new Error("keys unavailable");
      },
      { ...options, now: () => now },
    );
    await byok.forAccount("acct");
    now = 999;
    await byok.forAccount("acct");
    now = 1_000;
    await byok.forAccount("acct");
    expect(asked).toEqual([0, 1_000]);
    await byok.close();
  });

  it("keeps the account's order and, per provider, the first credential by position", async () => {
    const service = counting(() => ({
      credentials: [credential("m", "mistral", 2), credential("g2", "groq", 1), credential("g0", "groq", 0)],
      cacheTtlMs: 5_000,
    }));
    const byok = new ByokProviders(service.source, options);
    expect(summary(await byok.forAccount("acct"))).toEqual(["groq:g0", "mistral:m"]);
    await byok.close();
  });

  it("closes a replaced or dropped entry's adapters once a call on them would have ended, and all on close", async () => {
    vi.useFakeTimers();
    let now = 0;
    const service = counting(() => ({ credentials: [credential(`g${now}`, "groq", 0)], cacheTtlMs: 1_000 }));
    const byok = new ByokProviders(service.source, { ...options, now: () => now });
    const closed: string[] = [];
    const watch = (providers: AccountProviders) => {
      for (const { credentialId, adapter } of providers.values())
        vi.spyOn(adapter, "close").mockImplementation(async () => void closed.push(credentialId));
    };
    watch(await byok.forAccount("acct"));
    now = 1_000;
    // Expired: refetched, and the old adapter retired, not closed under a call that may be using it.
    watch(await byok.forAccount("acct"));
    await vi.advanceTimersByTimeAsync(1_999);
    expect(closed).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(closed).toEqual(["g0"]);
    byok.invalidate("acct");
    watch(await byok.forAccount("other"));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(closed).toEqual(["g0"]);
    // Closing closes what is cached and what is still retired, at once.
    await byok.close();
    expect(closed.sort()).toEqual(["g0", "g1000", "g1000"]);
  });

  it("drops an account's entry on its byok_changed event, and on no other", async () => {
    const bus = new InProcessEventBus();
    const service = counting(() => ({ credentials: [credential("g", "groq", 0)], cacheTtlMs: 5_000 }));
    const byok = new ByokProviders(service.source, options);
    const subscription = await byok.subscribe(bus, "keys", "edge-1");
    await byok.forAccount("acct");
    await byok.forAccount("other");
    const send = async (accountId: string, change: "byok_changed" | "updated") => {
      const event = encodeKeyChange({ keyHash: "", accountId, change });
      bus.publish("keys", event.key, event.value, event.headers);
      await new Promise((resolve) => setTimeout(resolve, 20));
    };
    await send("acct", "updated");
    await byok.forAccount("acct");
    expect(service.asked).toEqual(["acct", "other"]);
    await send("acct", "byok_changed");
    await byok.forAccount("acct");
    await byok.forAccount("other");
    expect(service.asked).toEqual(["acct", "other", "acct"]);
    await subscription.stop();
    await byok.close();
  });
});
