import { GatewayError } from "@gw/errors";
import { describe, expect, it } from "vitest";
import { checkPriced, nativeModelName, type ProxyModel } from "./proxy-access.js";

describe("nativeModelName", () => {
  it("reads the body's model (OpenAI, Anthropic) or Gemini's path segment", () => {
    expect(nativeModelName("openai", "/v1/chat/completions", { model: "gpt-4o" })).toBe("gpt-4o");
    expect(nativeModelName("anthropic", "/v1/messages", { model: 3 })).toBeUndefined();
    expect(nativeModelName("gemini", "/v1beta/models/gemini-2.5-flash:generateContent", {})).toBe(
      "gemini-2.5-flash",
    );
    expect(nativeModelName("gemini", "/v1beta/models/gemini-2.5-flash", {})).toBe("gemini-2.5-flash");
  });
});

describe("model names on the proxy", () => {
  it("takes printable names of at most 256 characters, and refuses others with a 400 naming model", () => {
    expect(nativeModelName("openai", "/v1/chat/completions", { model: "m".repeat(256) })).toBe(
      "m".repeat(256),
    );
    for (const model of ["m".repeat(257), "gpt-4o\u0000", "gpt 4o", "gpt-4o\u007f", "gpt-4o\n", "modèle"]) {
      let refused: GatewayError | undefined;
      try {
        nativeModelName("openai", "/v1/chat/completions", { model });
      } catch (error) {
        refused = error as GatewayError;
      }
      expect(refused, JSON.stringify(model)).toBeInstanceOf(GatewayError);
      expect(refused?.status).toBe(400);
      expect(refused?.message).toMatch(/^model: /);
    }
    expect(() => nativeModelName("gemini", "/v1beta/models/gem%00ini:generateContent", {})).toThrow(
      GatewayError,
    );
  });
});

describe("checkPriced", () => {
  const priced = {
    model: { id: "openai/gpt-4o" },
    endpoint: { providerId: "openai" },
  } as ProxyModel["priced"];

  it("lets a priced model and a call naming none through", () => {
    expect(() => checkPriced("openai", { name: "gpt-4o", priced })).not.toThrow();
    expect(() => checkPriced("openai", { name: undefined, priced: undefined })).not.toThrow();
  });

  it("refuses a named model the catalogue does not price at the provider, naming both", () => {
    let refused: GatewayError | undefined;
    try {
      checkPriced("openai", { name: "o3", priced: undefined });
    } catch (error) {
      refused = error as GatewayError;
    }
    expect(refused?.code).toBe("model_not_priced");
    expect(refused?.status).toBe(400);
    expect(refused?.message).toContain("model o3 is not priced at provider openai");
  });
});
