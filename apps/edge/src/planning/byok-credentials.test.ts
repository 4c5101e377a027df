import { silentLogger } from "@gw/logger";
import type { GetProviderCredentialsResponse } from "@gw/proto/keys/v1/keys";
import { describe, expect, it } from "vitest";
import { ByokProviders } from "./byok-credentials.js";

// No call is made to any provider here: adapters are only built (an undici pool connects lazily).
const SETTINGS = [
  {
    id: "groq",
    apiFormat: "openai" as const,
    baseUrl: "http://127.0.0.1:9",
    apiKey: undefined,
    isDemo: false,
  },
];
const TIMEOUTS = { connectMs: 1_000, firstByteMs: 1_000, totalMs: 1_000 };
const withGroq: GetProviderCredentialsResponse = {
  credentials: [{ id: "byok_1", providerId: "groq", apiKey: "gsk_x", position: 0 }],
  cacheTtlMs: 5_000,
};
const none: GetProviderCredentialsResponse = { credentials: [], cacheTtlMs: 5_000 };

function scripted(answers: Array<() => Promise<GetProviderCredentialsResponse>>) {
  let calls = 0;
  const source = () => {
    const answer = answers[Math.min(calls, answers.length - 1)];
    calls++;
    if (!answer) throw new Error("no answer scripted");
    return answer();
  };
  return { source, calls: () => calls };
}

const options = { settings: SETTINGS, timeouts: TIMEOUTS, logger: silentLogger() };

describe("ByokProviders", () => {
  it("caches an account's adapters and shares concurrent lookups", async () => {
    const service = scripted([async () => withGroq]);
    const byok = new ByokProviders(service.source, options);
    const [a, b] = await Promise.all([byok.forAccount("acct"), byok.forAccount("acct")]);
    await byok.forAccount("acct");
    expect([...(a?.keys() ?? [])]).toEqual(["groq"]);
    expect(b).toBe(a);
    expect(service.calls()).toBe(1);
    await byok.close();
  });

  it("refetches after an invalidation, and never caches an answer the invalidation overtook", async () => {
    let release: (answer: GetProviderCredentialsResponse) => void = () => {};
    const service = scripted([() => new Promise((resolve) => (release = resolve)), async () => none]);
    const byok = new ByokProviders(service.source, options);
    const before = byok.forAccount("acct");
    byok.invalidate("acct");
    release(withGroq);
    expect((await before).has("groq")).toBe(true);
    expect((await byok.forAccount("acct")).size).toBe(0);
    expect(service.calls()).toBe(2);
    await byok.close();
  });

  it("falls back to no BYOK keys when the key service fails, and retries after a short pause", async () => {
    let now = 0;
    const service = scripted([
      async () => {
        throw new Error("unavailable");
      },
      async () => withGroq,
    ]);
    const byok = new ByokProviders(service.source, { ...options, failureTtlMs: 100, now: () => now });
    expect((await byok.forAccount("acct")).size).toBe(0);
    expect((await byok.forAccount("acct")).size).toBe(0);
    now = 101;
    expect((await byok.forAccount("acct")).has("groq")).toBe(true);
    expect(service.calls()).toBe(2);
    await byok.close();
  });

  it("ignores credentials for providers this edge cannot reach", async () => {
    const service = scripted([
      async () => ({
        credentials: [{ id: "byok_2", providerId: "unknown", apiKey: "k", position: 0 }],
        cacheTtlMs: 5_000,
      }),
    ]);
    const byok = new ByokProviders(service.source, options);
    expect((await byok.forAccount("acct")).size).toBe(0);
    await byok.close();
  });
});
