import { GatewayError } from "@gw/errors";
import { describe, expect, it } from "vitest";
import { testEndpoint, testModel, testSnapshot } from "../test/catalog.js";
import { testKey } from "../test/principals.js";
import { checkProxyAccess, nativeModelName, resolveProxyModel } from "./proxy-access.js";
import { checkProxyPath } from "./proxy-path.js";

// The provider proxy's access checks: a key's provider and model allow-lists hold on the native
// surfaces too, and only calls whose model the catalogue prices at that provider count as priced.

const snapshot = testSnapshot([
  testModel("openai/gpt-4o", [testEndpoint("openai", { upstreamModel: "gpt-4o" })]),
  testModel("anthropic/claude-sonnet-4", [
    testEndpoint("anthropic", { upstreamModel: "claude-sonnet-4-20250514" }),
  ]),
]);

const open = testKey("acct_1").principal;
const openAiOnly = testKey("acct_1", { allowedProviders: { values: ["openai"] } }).principal;
const gpt4oOnly = testKey("acct_1", { allowedModels: { values: ["openai/gpt-4o"] } }).principal;

function refusal(run: () => void): GatewayError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayError);
    return error as GatewayError;
  }
  throw new Error("the call was let through");
}

describe("resolveProxyModel", () => {
  it("prices a native name the catalogue lists at this provider", () => {
    const resolved = resolveProxyModel(snapshot, "anthropic", "claude-sonnet-4-20250514");
    expect(resolved.name).toBe("claude-sonnet-4-20250514");
    expect(resolved.priced?.model.id).toBe("anthropic/claude-sonnet-4");
    expect(resolved.priced?.endpoint.providerId).toBe("anthropic");
  });

  it("prefers the model of the proxy's own provider when another author lists the same name", () => {
    const shared = testSnapshot([
      testModel("meta/claude-sonnet-4", [testEndpoint("together", { upstreamModel: "x" })]),
      testModel("anthropic/claude-sonnet-4", [
        testEndpoint("anthropic", { upstreamModel: "claude-sonnet-4" }),
      ]),
    ]);
    expect(resolveProxyModel(shared, "anthropic", "claude-sonnet-4").priced?.model.id).toBe(
      "anthropic/claude-sonnet-4",
    );
  });

  it("leaves unpriced a model unknown to the catalogue, one served by another provider, or none", () => {
    expect(resolveProxyModel(snapshot, "openai", "gpt-9")).toEqual({ name: "gpt-9", priced: undefined });
    expect(resolveProxyModel(snapshot, "openai", "anthropic/claude-sonnet-4")).toEqual({
      name: "anthropic/claude-sonnet-4",
      priced: undefined,
    });
    expect(resolveProxyModel(snapshot, "openai", undefined)).toEqual({ name: undefined, priced: undefined });
  });
});

describe("checkProxyAccess", () => {
  const gpt4o = resolveProxyModel(snapshot, "openai", "gpt-4o");
  const claude = resolveProxyModel(snapshot, "anthropic", "claude-sonnet-4");

  it("lets a key without allow-lists call any provider, any model or none", () => {
    expect(() => checkProxyAccess(open, "anthropic", claude)).not.toThrow();
    expect(() => checkProxyAccess(open, "openai", { name: undefined, priced: undefined })).not.toThrow();
  });

  it("refuses a provider outside the key's allow-list with 403 provider_not_allowed", () => {
    expect(() => checkProxyAccess(openAiOnly, "openai", gpt4o)).not.toThrow();
    const error = refusal(() => checkProxyAccess(openAiOnly, "anthropic", claude));
    expect(error.status).toBe(403);
    expect(error.code).toBe("provider_not_allowed");
    expect(error.message).toBe("this key may not use provider anthropic");
  });

  it("refuses a model outside the key's allow-list with 403 model_not_allowed, naming it", () => {
    expect(() => checkProxyAccess(gpt4oOnly, "openai", gpt4o)).not.toThrow();
    const error = refusal(() => checkProxyAccess(gpt4oOnly, "anthropic", claude));
    expect(error.status).toBe(403);
    expect(error.code).toBe("model_not_allowed");
    expect(error.message).toBe("this key may not use model anthropic/claude-sonnet-4");
  });

  it("refuses a model-limited key a call whose model cannot be shown to be allowed", () => {
    const unknown = refusal(() =>
      checkProxyAccess(gpt4oOnly, "openai", { name: "gpt-9", priced: undefined }),
    );
    expect(unknown.code).toBe("model_not_allowed");
    expect(unknown.message).toBe("this key may not use model gpt-9");
    const none = refusal(() => checkProxyAccess(gpt4oOnly, "openai", { name: undefined, priced: undefined }));
    expect(none.message).toBe("this key may not use model (none named)");
  });
});

describe("checkProxyPath refusals", () => {
  it("answer 403 naming the method and path", () => {
    const error = refusal(() => checkProxyPath("openai", "GET", "/v1/files?limit=1"));
    expect(error.status).toBe(403);
    expect(error.message).toBe("the provider proxy does not forward GET /v1/files");
  });

  it("forward only what is on the list: a path that merely avoids the shared-state names is refused too", () => {
    for (const path of ["/v1/filesystem-search", "/v1/files/abc", "/v1/files:upload", "/v1/x/admin"])
      expect(() => checkProxyPath("openai", "POST", path), path).toThrow(GatewayError);
    expect(() => checkProxyPath("google", "POST", "/v1beta/models/x:batchesGenerate")).toThrow(GatewayError);
  });

  it("refuse dot segments anywhere in the path, and model paths with extra segments", () => {
    expect(() => checkProxyPath("openai", "POST", "../v1/chat/completions")).toThrow(GatewayError);
    for (const path of ["./v1/models", "/v1/./models", "/v1/models/..", "/v1/models/."])
      expect(() => checkProxyPath("openai", "GET", path), path).toThrow(GatewayError);
    expect(() => checkProxyPath("openai", "GET", "/v1/models/gpt-4o/versions")).toThrow(GatewayError);
    expect(() => checkProxyPath("openai", "GET", "v1/models")).toThrow(GatewayError);
    expect(() => checkProxyPath("openai", "GET", "/models")).not.toThrow();
    expect(() => checkProxyPath("openai", "GET", "/v1/models.json")).toThrow(GatewayError);
  });
});

describe("nativeModelName", () => {
  it("decodes Gemini's model segment and reads it before a query or method", () => {
    expect(nativeModelName("gemini", "/v1beta/models/tuned%2Fx:generateContent", {})).toBe("tuned/x");
    expect(nativeModelName("gemini", "/v1beta/models/gemini-2.5-pro?alt=sse", {})).toBe("gemini-2.5-pro");
    expect(nativeModelName("gemini", "/v1beta/models", {})).toBeUndefined();
    expect(nativeModelName("gemini", "/v1beta/models/x/y", {})).toBeUndefined();
  });

  it("ignores a missing, empty or non-string body model", () => {
    expect(nativeModelName("openai", "/v1/chat/completions", { model: "" })).toBeUndefined();
    expect(nativeModelName("openai", "/v1/chat/completions", null)).toBeUndefined();
    expect(nativeModelName("openai", "/v1/chat/completions", "gpt-4o")).toBeUndefined();
    expect(nativeModelName("anthropic", "/v1/messages", {})).toBeUndefined();
  });
});
