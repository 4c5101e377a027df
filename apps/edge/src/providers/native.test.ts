import { describe, expect, it } from "vitest";
import type { ChatRequest } from "../canonical/chat-request.js";
import { UntranslatableError, untranslatable } from "../translate/untranslatable.js";
import { anthropicNativeBody } from "./anthropic/native-rules.js";
import type { WireDialect } from "./exchange.js";
import { geminiNativePath } from "./google/native-rules.js";
import {
  forwardedHeaders,
  nativeAware,
  nativeRequestOf,
  translateNative,
  withNativeRequest,
} from "./native.js";
import type { ChatCall } from "./types.js";

const canonicalWire = { path: "/translated", headers: { "x-api-key": "provider-key" }, body: "{}" };
const dialect: WireDialect = {
  request: () => canonicalWire,
  parse: () => {
    throw new Error("unused");
  },
  events: () => {
    throw new Error("unused");
  },
};
const providerHeaders = {
  "content-type": "application/json",
  "anthropic-version": "2023-06-01",
  "x-api-key": "provider-key",
};

function call(request: ChatRequest, stream = false): ChatCall {
  return { request, upstreamModel: "claude-upstream", stream, signal: new AbortController().signal };
}

describe("native pass-through", () => {
  const callerBody = {
    model: "anthropic/claude-test",
    max_tokens: 10,
    system: [{ type: "text", text: "S", cache_control: { type: "ephemeral" } }],
    messages: [{ role: "user", content: "hi" }],
    models: ["x/y"],
    provider: { order: ["anthropic"] },
    future_field: { kept: true },
  };

  it("sends a same-format caller's body with only the model replaced and the routing fields removed", () => {
    const request = withNativeRequest({ model: "anthropic/claude-test", messages: [] } as ChatRequest, {
      format: "anthropic",
      body: callerBody,
      headers: { "anthropic-beta": "b-1", "anthropic-version": "2023-01-01" },
    });
    const wire = nativeAware("anthropic", dialect, providerHeaders).request(call(request, true));
    const { models: _m, provider: _p, ...rest } = callerBody;
    expect(JSON.parse(wire.body)).toEqual({ ...rest, model: "claude-upstream", stream: true });
    expect(wire.path).toBe("/v1/messages");
    expect(wire.headers).toEqual({
      ...providerHeaders,
      "anthropic-beta": "b-1",
      "anthropic-version": "2023-01-01",
    });
  });

  it("translates for another format, and a request without a native body, as before", () => {
    const native = withNativeRequest({ model: "m", messages: [] } as ChatRequest, {
      format: "anthropic",
      body: callerBody,
      headers: { "anthropic-beta": "b-1" },
    });
    expect(nativeAware("gemini", dialect, {}).request(call(native))).toBe(canonicalWire);
    expect(
      nativeAware("anthropic", dialect, providerHeaders).request(
        call({ model: "m", messages: [] } as ChatRequest),
      ),
    ).toBe(canonicalWire);
  });

  it("never lets a forwarded header replace the provider's credential", () => {
    const request = withNativeRequest({ model: "m", messages: [] } as ChatRequest, {
      format: "openai",
      body: {},
      headers: { "x-api-key": "caller", authorization: "Bearer caller", "openai-beta": "v2" },
    });
    const wire = nativeAware("openai", dialect, { authorization: "Bearer provider" }).request(call(request));
    expect(wire.headers).toMatchObject({
      "x-api-key": "provider-key",
      authorization: "Bearer provider",
      "openai-beta": "v2",
    });
  });

  it("forwards only each format's allow-list from the caller", () => {
    const incoming = {
      "anthropic-beta": "a",
      "anthropic-version": "2023-06-01",
      "openai-beta": "assistants=v2",
      authorization: "Bearer caller",
      "x-api-key": "caller",
      cookie: "c",
    };
    expect(forwardedHeaders(incoming, "anthropic")).toEqual({
      "anthropic-beta": "a",
      "anthropic-version": "2023-06-01",
    });
    expect(forwardedHeaders(incoming, "openai")).toEqual({ "openai-beta": "assistants=v2" });
    expect(forwardedHeaders(incoming, "gemini")).toEqual({});
  });

  it("leaves untranslatable top-level fields to the native provider and refuses them for another format", () => {
    const translate = (body: Record<string, unknown>): ChatRequest => {
      if ("context_management" in body) untranslatable("context_management", "no translation");
      if ("mcp_servers" in body) untranslatable("mcp_servers", "no translation");
      return { model: String(body.model), messages: [] } as ChatRequest;
    };
    const body = { model: "m", context_management: {}, mcp_servers: [] };
    const { chat, untranslated } = translateNative("anthropic", body, translate);
    expect(untranslated).toEqual(["context_management", "mcp_servers"]);
    withNativeRequest(chat, { format: "anthropic", body, headers: {}, untranslated });
    expect(() => nativeAware("openai", dialect, {}).request(call(chat))).toThrow(
      /^context_management, mcp_servers cannot be sent to this model/,
    );
    expect(
      JSON.parse(nativeAware("anthropic", dialect, providerHeaders).request(call(chat)).body),
    ).toMatchObject({
      context_management: {},
      mcp_servers: [],
    });
  });

  it("keeps undocumented, account-state and nested untranslatable parts the caller's 400", () => {
    for (const what of [
      "constructor",
      "container",
      "service_tier",
      "messages[0].content[0] (type document)",
    ]) {
      const translate = (): ChatRequest => untranslatable(what, "no translation");
      expect(() => translateNative("anthropic", { model: "m", [what]: 1 }, translate)).toThrow(
        UntranslatableError,
      );
    }
  });

  it("passes through only bodies with plain member names; others translate, or are refused with a native-only field", () => {
    const odd = [
      JSON.parse('{"messages":[{"role":"user","content":"x","__proto__":{"polluted":true}}]}'),
      { system: [{ type: "text", text: "s", constructor: { prototype: {} } }] },
      { metadata: { ["bad\u0000key"]: 1 } },
      { tools: [{ name: "t", ["\ud800"]: 1, "../": 1 }] },
      { messages: [{ role: "user", content: "x", "%ff": 1 }] },
    ];
    for (const body of odd) {
      const request = withNativeRequest({ model: "m", messages: [] } as ChatRequest, {
        format: "anthropic",
        body,
        headers: {},
      });
      expect(nativeRequestOf(request)).toBeUndefined();
      expect(() =>
        withNativeRequest({ model: "m", messages: [] } as ChatRequest, {
          format: "anthropic",
          body,
          headers: {},
          untranslated: ["context_management"],
        }),
      ).toThrow(/member name not allowed/);
    }
    const fine = {
      tools: [{ name: "t", input_schema: { $schema: "x", properties: { city: {} } } }],
      text: "\ud83d\ude00",
    };
    const request = withNativeRequest({ model: "m", messages: [] } as ChatRequest, {
      format: "anthropic",
      body: fine,
      headers: {},
    });
    expect(nativeRequestOf(request)?.body).toBe(fine);
  });

  it("refuses a top-level name no API has on the OpenAI surface, whose canonical form keeps it", () => {
    const request = { model: "m", messages: [] } as ChatRequest;
    expect(() =>
      withNativeRequest(request, { format: "openai", body: { "\ufffdmax_tokens": 16 }, headers: {} }),
    ).toThrow(/unknown parameter/);
    expect(() =>
      withNativeRequest(request, { format: "openai", body: { seed: 1 }, headers: {} }),
    ).not.toThrow();
  });

  it("follows the attempt's stream mode and the caller's Gemini API version", () => {
    expect(anthropicNativeBody({ stream: true }, "m", false)).toEqual({ model: "m", stream: false });
    expect(anthropicNativeBody({}, "m", false)).toEqual({ model: "m" });
    expect(geminiNativePath("v1", "gemini-2.5-flash", true)).toBe(
      "/v1/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
    );
    expect(geminiNativePath("v9", "a/b", false)).toBe("/v1beta/models/a%2Fb:generateContent");
  });
});
