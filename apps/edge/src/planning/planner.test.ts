import type { ApiFormat } from "@gw/catalog";
import { describe, expect, it } from "vitest";
import type { ChatRequest } from "../canonical/chat-request.js";
import { CatalogHolder } from "../catalog/catalog-holder.js";
import { ProviderRegistry } from "../providers/registry.js";
import type {
  ChatProvider,
  EmbeddingsProvider,
  ProviderAdapter,
  ProxyTransport,
} from "../providers/types.js";
import { testEndpoint, testModel, testSnapshotResponse } from "../test/catalog.js";
import { testKey } from "../test/principals.js";
import { chatAvailability, embeddingsAvailability } from "./availability.js";
import type { AccountProviders, ByokProviders } from "./byok-credentials.js";
import { EndpointHealth } from "./health.js";
import { Planner } from "./planner.js";

// What the planner can route to on this edge: providers with credentials here, and the surfaces their
// adapters serve. The adapters are stand-ins: routing never calls them.

const chat: ChatProvider = { complete: async () => Promise.reject(new Error("not called")) };
const embeddings: EmbeddingsProvider = { embed: async () => Promise.reject(new Error("not called")) };
const proxy: ProxyTransport = { send: async () => Promise.reject(new Error("not called")) };

function adapter(id: string, parts: Partial<ProviderAdapter> = {}): ProviderAdapter {
  const apiFormat: ApiFormat = "openai";
  return { id, apiFormat, isDemo: false, chat, unsupported: undefined, close: async () => {}, ...parts };
}

const registry = new ProviderRegistry([
  adapter("openai", { embeddings, proxy }),
  adapter("anthropic", { unsupported: undefined }),
  adapter("images-only", { chat: undefined, unsupported: "only image generation" }),
  adapter("bare", { chat: undefined }),
]);

describe("availability on this edge", () => {
  it("chat: a provider needs credentials here and a chat adapter", () => {
    const available = chatAvailability(registry);
    expect(available("openai")).toEqual({ usable: true });
    expect(available("azure")).toEqual({
      usable: false,
      code: "provider_not_configured",
      reason: "the provider has no credentials on this gateway",
    });
    expect(available("images-only")).toEqual({
      usable: false,
      code: "surface_not_supported",
      reason: "only image generation",
    });
    expect(available("bare")).toEqual({
      usable: false,
      code: "surface_not_supported",
      reason: "not supported on this surface",
    });
  });

  it("embeddings: a provider needs an embeddings adapter; an unknown one is not configured", () => {
    const available = embeddingsAvailability(registry);
    expect(available("openai")).toEqual({ usable: true });
    expect(available("anthropic")).toEqual({
      usable: false,
      code: "surface_not_supported",
      reason: "the provider has no embeddings API",
    });
    expect(available("azure")).toMatchObject({ usable: false, code: "provider_not_configured" });
  });
});

async function planner(own: AccountProviders = new Map()) {
  const snapshot = testSnapshotResponse([
    testModel("openai/gpt-4o", [testEndpoint("openai"), testEndpoint("azure")]),
    testModel("openai/text-embedding-3-small", [testEndpoint("openai"), testEndpoint("anthropic")], {
      kind: "embedding",
    }),
  ]);
  const catalog = new CatalogHolder(async () => snapshot);
  await catalog.refresh();
  return new Planner({
    catalog,
    providers: registry,
    // Only forAccount is read by the planner: the stand-in answers every account with `own`.
    byok: own.size === 0 ? undefined : ({ forAccount: async () => own } as unknown as ByokProviders),
    health: new EndpointHealth({ get: () => undefined }, () => 0),
    random: () => 0,
  });
}

const request = (model: string): ChatRequest => ({ model, messages: [{ role: "user", content: "hi" }] });

describe("Planner", () => {
  it("routes a chat request only to providers this edge can call, with their adapters", async () => {
    const route = await (await planner()).route({
      principal: testKey("acct-1").principal,
      request: request("openai/gpt-4o"),
      kind: "chat",
    });
    expect(route.attempts.map((attempt) => attempt.endpoint.providerId)).toEqual(["openai"]);
    const first = route.attempts[0];
    expect(first && route.adapterFor(first)?.id).toBe("openai");
  });

  it("routes an embedding request only to providers with an embeddings API", async () => {
    const route = await (await planner()).route({
      principal: testKey("acct-1").principal,
      request: request("openai/text-embedding-3-small"),
      kind: "embedding",
    });
    expect(route.attempts.map((attempt) => attempt.endpoint.providerId)).toEqual(["openai"]);
  });

  it("applies the key's allow-lists when checking a request without routing it", async () => {
    const forbidden = testKey("acct-1", { allowedModels: { values: ["openai/other"] } }).principal;
    await expect(
      planner().then((p) =>
        p.check({ principal: forbidden, request: request("openai/gpt-4o"), kind: "chat" }),
      ),
    ).rejects.toMatchObject({ status: 403 });
    const allowed = (await planner()).check({
      principal: testKey("acct-1").principal,
      request: request("openai/gpt-4o"),
      kind: "chat",
    });
    expect(allowed.attempts.map((attempt) => attempt.endpoint.providerId)).toEqual(["openai"]);
  });

  it("gives the proxy the gateway's transport, or 503 for a provider it cannot call", async () => {
    const p = await planner();
    expect(await p.proxyTransport("acct-1", "openai")).toEqual({ transport: proxy, isByok: false });
    await expect(p.proxyTransport("acct-1", "anthropic")).rejects.toMatchObject({
      status: 503,
      code: "no_available_provider",
      message: "provider anthropic is not configured on this gateway",
    });
    expect((await p.accountProviders("acct-1")).size).toBe(0);
  });
});

describe("Planner with the account's own keys (BYOK)", () => {
  const ownProxy: ProxyTransport = { send: async () => Promise.reject(new Error("not called")) };
  const ownOpenai = adapter("openai", { proxy: ownProxy });
  const ownAzure = adapter("azure");
  const own: AccountProviders = new Map([
    ["openai", { credentialId: "byok_openai", adapter: ownOpenai }],
    ["azure", { credentialId: "byok_azure", adapter: ownAzure }],
  ]);

  it("sends a BYOK attempt with the account's adapter and the fallback with the gateway's", async () => {
    const route = await (await planner(own)).route({
      principal: testKey("acct-1").principal,
      request: request("openai/gpt-4o"),
      kind: "chat",
    });
    const sent = route.attempts.map((attempt) => ({
      provider: attempt.endpoint.providerId,
      byok: attempt.byok !== undefined,
      adapter: route.adapterFor(attempt),
    }));
    expect(sent.map(({ provider, byok }) => `${provider}${byok ? "*" : ""}`)).toEqual([
      "openai*",
      "azure*",
      "openai",
    ]);
    // Each chat adapter is wrapped per endpoint: the same provider's, not the same object.
    expect(sent.map((entry) => entry.adapter?.id)).toEqual(["openai", "azure", "openai"]);
    expect(sent[0]?.adapter?.proxy).toBe(ownProxy);
    expect(sent[2]?.adapter?.proxy).toBe(proxy);
  });

  it("gives the proxy the account's own transport first", async () => {
    const p = await planner(own);
    expect(await p.proxyTransport("acct-1", "openai")).toEqual({ transport: ownProxy, isByok: true });
    // An own key without a proxy transport falls to the gateway's (here none: 503).
    await expect(p.proxyTransport("acct-1", "azure")).rejects.toMatchObject({ status: 503 });
  });
});
