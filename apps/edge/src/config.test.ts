import { ConfigError } from "@gw/config";
import { describe, expect, it } from "vitest";
import { loadEdgeConfig } from "./config.js";

describe("loadEdgeConfig", () => {
  it("defaults to the documented ports, addresses, topics and limits", () => {
    const config = loadEdgeConfig({});
    expect(config.host).toBe("0.0.0.0");
    expect(config.httpPort).toBe(8080);
    expect(config.keysGrpcAddress).toBe("127.0.0.1:50051");
    expect(config.billingGrpcAddress).toBe("127.0.0.1:50052");
    expect(config.controlPlane).toEqual({
      keysHttpUrl: "http://127.0.0.1:8081",
      billingHttpUrl: "http://127.0.0.1:8082",
      generationsHttpUrl: "http://127.0.0.1:8083",
    });
    expect(config.topics).toEqual({
      usage: "gateway.usage.v1",
      keyChanges: "gateway.key-changes.v1",
      payments: "gateway.payments.v1",
    });
    expect(config.bodyLimit).toBe("10mb");
    expect(config.bodyTimeoutMs).toBe(10_000);
    expect(config.keepAliveMs).toBe(15_000);
    expect(config.spoolDir).toBe(".data/spool");
    expect(config.providers).toEqual([]);
    expect(config.generationsGrpcAddress).toBeUndefined();
    expect(config.publicBaseUrl).toBeUndefined();
  });

  it("reads the provider proxy's default hold in USD, exactly, and refuses a malformed one", () => {
    expect(loadEdgeConfig({}).proxyHoldPico).toBe(100_000_000_000n);
    expect(loadEdgeConfig({ PROXY_DEFAULT_HOLD_USD: "0.000001" }).proxyHoldPico).toBe(1_000_000n);
    expect(() => loadEdgeConfig({ PROXY_DEFAULT_HOLD_USD: "-1" })).toThrow(ConfigError);
  });

  it("reads BYOK_FEE_PERCENT (default 0) and refuses a percent outside 0..100", () => {
    expect(loadEdgeConfig({}).byokFeePercent).toBe(0);
    expect(loadEdgeConfig({ BYOK_FEE_PERCENT: "5.5" }).byokFeePercent).toBe(5.5);
    for (const bad of ["-1", "101", "five"])
      expect(() => loadEdgeConfig({ BYOK_FEE_PERCENT: bad }), bad).toThrow(ConfigError);
  });

  it("reads the flood guard's buckets (FLOOD_*), 0 turning one off, and names a bad value", () => {
    expect(loadEdgeConfig({}).flood).toEqual({
      address: { perSecond: 2_000, burst: 4_000 },
      key: { perSecond: 1_000, burst: 2_000 },
    });
    const set = loadEdgeConfig({ FLOOD_ADDRESS_RPS: "0", FLOOD_KEY_RPS: "2.5", FLOOD_KEY_BURST: "10" });
    expect(set.flood).toEqual({
      address: { perSecond: 0, burst: 4_000 },
      key: { perSecond: 2.5, burst: 10 },
    });
    expect(() => loadEdgeConfig({ FLOOD_KEY_BURST: "0" })).toThrow(/FLOOD_KEY_BURST/);
    expect(() => loadEdgeConfig({ FLOOD_ADDRESS_RPS: "-1" })).toThrow(/FLOOD_ADDRESS_RPS/);
  });

  it("reads the web plugin's search API (WEB_SEARCH_*) only as a URL with its key", () => {
    expect(loadEdgeConfig({}).webSearch).toBeUndefined();
    expect(
      loadEdgeConfig({ WEB_SEARCH_URL: "https://api.exa.ai/", WEB_SEARCH_API_KEY: "exa-secret" }).webSearch,
    ).toEqual({ url: "https://api.exa.ai", apiKey: "exa-secret", timeoutMs: 10_000 });
    expect(() => loadEdgeConfig({ WEB_SEARCH_URL: "https://api.exa.ai" })).toThrow(/WEB_SEARCH_API_KEY/);
    expect(() => loadEdgeConfig({ WEB_SEARCH_API_KEY: "exa-secret" })).toThrow(/WEB_SEARCH_URL: required/);
    expect(() => loadEdgeConfig({ WEB_SEARCH_URL: "exa", WEB_SEARCH_API_KEY: "k" })).toThrow(
      /WEB_SEARCH_URL/,
    );
    // A bad value is named, never echoed: the key is a secret.
    try {
      loadEdgeConfig({
        WEB_SEARCH_URL: "https://api.exa.ai",
        WEB_SEARCH_API_KEY: "exa-secret",
        WEB_SEARCH_TIMEOUT_MS: "x",
      });
    } catch (error) {
      expect(String(error)).toContain("WEB_SEARCH_TIMEOUT_MS");
      expect(String(error)).not.toContain("exa-secret");
    }
  });

  it("reads the media fetch's caps (MEDIA_FETCH_*: 20 MiB, 10 s, 3 redirects) and names a bad value", () => {
    expect(loadEdgeConfig({}).mediaFetch).toEqual({
      maxBytes: 20_971_520,
      timeoutMs: 10_000,
      maxRedirects: 3,
    });
    const set = loadEdgeConfig({
      MEDIA_FETCH_MAX_BYTES: "1048576",
      MEDIA_FETCH_TIMEOUT_MS: "2500",
      MEDIA_FETCH_MAX_REDIRECTS: "0",
    });
    expect(set.mediaFetch).toEqual({ maxBytes: 1_048_576, timeoutMs: 2_500, maxRedirects: 0 });
    for (const bad of ["0", "-1", "1.5", "20mb"])
      expect(() => loadEdgeConfig({ MEDIA_FETCH_MAX_BYTES: bad }), bad).toThrow(/MEDIA_FETCH_MAX_BYTES/);
    for (const bad of ["0", "soon"])
      expect(() => loadEdgeConfig({ MEDIA_FETCH_TIMEOUT_MS: bad }), bad).toThrow(/MEDIA_FETCH_TIMEOUT_MS/);
    for (const bad of ["-1", "21", "many"])
      expect(() => loadEdgeConfig({ MEDIA_FETCH_MAX_REDIRECTS: bad }), bad).toThrow(
        /MEDIA_FETCH_MAX_REDIRECTS/,
      );
  });

  it("trusts no proxy by default, reads TRUSTED_PROXIES as a CIDR list and names a bad entry", () => {
    expect(loadEdgeConfig({}).trustedProxies).toEqual([]);
    expect(loadEdgeConfig({ TRUSTED_PROXIES: "10.0.0.0/8, 127.0.0.1" }).trustedProxies).toEqual([
      "10.0.0.0/8",
      "127.0.0.1",
    ]);
    expect(() => loadEdgeConfig({ TRUSTED_PROXIES: "10.0.0.0/8,proxy.local" })).toThrow(
      /TRUSTED_PROXIES.*proxy\.local/s,
    );
  });

  it("reads the usage producer's linger and batch size (KAFKA_PRODUCER_*), and names a bad value", () => {
    expect(loadEdgeConfig({}).producer).toEqual({ lingerMs: 20, batchSize: 500 });
    const set = loadEdgeConfig({ KAFKA_PRODUCER_LINGER_MS: "0", KAFKA_PRODUCER_BATCH_SIZE: "1000" });
    expect(set.producer).toEqual({ lingerMs: 0, batchSize: 1000 });
    for (const bad of ["-1", "1001", "5.5", "soon"])
      expect(() => loadEdgeConfig({ KAFKA_PRODUCER_LINGER_MS: bad }), bad).toThrow(
        /KAFKA_PRODUCER_LINGER_MS/,
      );
    for (const bad of ["0", "10001", "many"])
      expect(() => loadEdgeConfig({ KAFKA_PRODUCER_BATCH_SIZE: bad }), bad).toThrow(
        /KAFKA_PRODUCER_BATCH_SIZE/,
      );
  });

  it("admits under budget leases unless ADMISSION_LEASES is false, and refuses anything else", () => {
    expect(loadEdgeConfig({}).leases).toBe(true);
    expect(loadEdgeConfig({ ADMISSION_LEASES: "false" }).leases).toBe(false);
    expect(() => loadEdgeConfig({ ADMISSION_LEASES: "off" })).toThrow(ConfigError);
  });

  it("reads the batch store address and the public base URL (without a trailing slash)", () => {
    const config = loadEdgeConfig({
      GENERATIONS_GRPC_ADDRESS: "gen:50053",
      PUBLIC_BASE_URL: "https://gw.example/",
    });
    expect(config.generationsGrpcAddress).toBe("gen:50053");
    expect(config.publicBaseUrl).toBe("https://gw.example");
    expect(() => loadEdgeConfig({ PUBLIC_BASE_URL: "not a url" })).toThrow(/PUBLIC_BASE_URL/);
  });

  it("refuses to start x402 without PUBLIC_BASE_URL: its offers would be built on the caller's Host (issue 33)", () => {
    const x402 = {
      X402_ENABLED: "true",
      X402_FACILITATOR_URL: "http://127.0.0.1:9",
      X402_PAY_TO_EVM: "0x2096000000000000000000000000000000000001",
    };
    expect(() => loadEdgeConfig(x402)).toThrow(ConfigError);
    expect(() => loadEdgeConfig(x402)).toThrow(/PUBLIC_BASE_URL: required when X402_ENABLED=true/);
    expect(loadEdgeConfig({ ...x402, PUBLIC_BASE_URL: "https://gw.example" }).x402?.publicBaseUrl).toBe(
      "https://gw.example",
    );
  });

  it("enables a provider when its key is set, at its public base URL unless overridden", () => {
    const config = loadEdgeConfig({
      OPENAI_API_KEY: "sk-1",
      GROQ_API_KEY: "gsk",
      GROQ_BASE_URL: "http://127.0.0.1:9/v1",
    });
    expect(config.providers).toEqual([
      {
        id: "openai",
        apiFormat: "openai",
        baseUrl: "https://api.openai.com/v1",
        apiKey: "sk-1",
        isDemo: false,
      },
      { id: "groq", apiFormat: "openai", baseUrl: "http://127.0.0.1:9/v1", apiKey: "gsk", isDemo: false },
    ]);
  });

  it("maps Gemini's variables to the google provider", () => {
    expect(loadEdgeConfig({ GEMINI_API_KEY: "g" }).providers.map((provider) => provider.id)).toEqual([
      "google",
    ]);
  });

  it("enables keyless local servers and the demo only when their URL is set", () => {
    expect(loadEdgeConfig({ OLLAMA_API_KEY: "" }).providers).toEqual([]);
    const config = loadEdgeConfig({
      OLLAMA_BASE_URL: "http://127.0.0.1:11434/v1",
      DEMO_PROVIDER_URL: "http://127.0.0.1:9101/v1",
    });
    expect(config.providers).toEqual([
      {
        id: "ollama",
        apiFormat: "openai",
        baseUrl: "http://127.0.0.1:11434/v1",
        apiKey: undefined,
        isDemo: false,
      },
      {
        id: "demo",
        apiFormat: "openai",
        baseUrl: "http://127.0.0.1:9101/v1",
        apiKey: undefined,
        isDemo: true,
      },
    ]);
  });

  it.each([
    [{ HTTP_PORT: "eighty" }, "HTTP_PORT"],
    [{ KEYS_HTTP_URL: "not a url" }, "KEYS_HTTP_URL"],
    [{ BODY_LIMIT: "ten megs" }, "BODY_LIMIT"],
    [{ UPSTREAM_CONNECT_TIMEOUT_MS: "-1" }, "UPSTREAM_CONNECT_TIMEOUT_MS"],
    [{ OPENAI_API_KEY: "k", OPENAI_BASE_URL: "ftp://x" }, "OPENAI_BASE_URL"],
    [{ DEMO_PROVIDER_URL: "nope" }, "DEMO_PROVIDER_URL"],
    [{ OPENAI_API_KEY: "sk-a\r\nX-Injected: 1" }, "OPENAI_API_KEY"],
    [{ GROQ_API_KEY: "gsk_\u0000" }, "GROQ_API_KEY"],
    [{ ANTHROPIC_API_KEY: "k".repeat(4_097) }, "ANTHROPIC_API_KEY"],
  ])("names the bad variable in %j", (env, name) => {
    expect(() => loadEdgeConfig(env)).toThrow(ConfigError);
    expect(() => loadEdgeConfig(env)).toThrow(name);
  });
});
