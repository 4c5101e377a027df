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
  unsendableTo,
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

  it("leaves every field the translation refuses by name to the native provider, and refuses it for another format", () => {
    const translate = (body: Record<string, unknown>): ChatRequest => {
      for (const name of Object.keys(body))
        if (name !== "model" && name !== "output_config") untranslatable(name, "no translation");
      const config = (body.output_config ?? {}) as Record<string, unknown>;
      const other = Object.keys(config).find((name) => name !== "format");
      if (other) untranslatable(`output_config.${other}`, "no translation");
      return {
        model: String(body.model),
        messages: [],
        ...(config.format ? { response_format: {} } : {}),
      } as ChatRequest;
    };
    const body = {
      model: "m",
      context_management: {},
      future_field: { any: 1 },
      output_config: { format: { type: "json_schema" }, effort: "low" },
    };
    const { chat, untranslated } = translateNative("anthropic", body, translate);
    expect(untranslated).toEqual(["context_management", "future_field", "output_config.effort"]);
    // What translates of a half-known field stays in the canonical request.
    expect(chat.response_format).toEqual({});
    withNativeRequest(chat, { format: "anthropic", body, headers: {}, untranslated });
    expect(unsendableTo(chat, "openai")).toMatch(
      /^context_management, future_field, output_config.effort: only anthropic/,
    );
    expect(unsendableTo(chat, "anthropic")).toBeUndefined();
    expect(() => nativeAware("openai", dialect, {}).request(call(chat))).toThrow(
      /^context_management, future_field, output_config.effort cannot be sent to this model/,
    );
    expect(JSON.parse(nativeAware("anthropic", dialect, providerHeaders).request(call(chat)).body)).toEqual({
      ...body,
      model: "claude-upstream",
    });
  });

  it("refuses the format's refused fields and parts refused below the top level", () => {
    for (const what of ["container", "service_tier"]) {
      const translate = (): ChatRequest => ({ model: "m", messages: [] }) as ChatRequest;
      expect(() => translateNative("anthropic", { model: "m", [what]: 1 }, translate)).toThrow(
        UntranslatableError,
      );
    }
    expect(() =>
      translateNative(
        "gemini",
        { contents: [], cachedContent: "cachedContents/x" },
        () => ({}) as ChatRequest,
      ),
    ).toThrow(/cachedContent cannot be sent/);
    for (const what of ["messages[0].content[0] (type document)", "tools.0.deep.er", "absent"]) {
      const translate = (): ChatRequest => untranslatable(what, "no translation");
      expect(() => translateNative("anthropic", { model: "m", tools: { 0: {} } }, translate)).toThrow(
        UntranslatableError,
      );
    }
  });

  it("refuses names no API has before admission on every surface; other names are data and pass", () => {
    const odd = [
      JSON.parse('{"messages":[{"role":"user","content":"x","__proto__":{"polluted":true}}]}'),
      { system: [{ type: "text", text: "s", constructor: { prototype: {} } }] },
      { metadata: { ["bad\u0000key"]: 1 } },
      { tools: [{ name: "t", ["\ud800"]: 1 }] },
      { messages: [{ role: "user", content: "x", ["\u009b"]: 1 }] },
    ];
    for (const format of ["anthropic", "gemini", "openai"] as const)
      for (const body of odd)
        expect(() =>
          withNativeRequest({ model: "m", messages: [] } as ChatRequest, { format, body, headers: {} }),
        ).toThrow(/member name not allowed/);
    const fine = {
      tools: [
        {
          name: "t",
          input_schema: { $schema: "x", properties: { "first name": {}, página: {}, "%ff/../": {} } },
        },
      ],
      text: "\ud83d\ude00",
    };
    const request = withNativeRequest({ model: "m", messages: [] } as ChatRequest, {
      format: "anthropic",
      body: fine,
      headers: {},
    });
    expect(nativeRequestOf(request)?.body).toBe(fine);
  });

  it("refuses a top-level name that is not an identifier, or Object's own, on every surface", () => {
    const request = { model: "m", messages: [] } as ChatRequest;
    for (const format of ["anthropic", "gemini", "openai"] as const) {
      for (const name of ["\ufffdmax_tokens", "../x", "a b", "constructor", "__proto__", "toString"])
        expect(() =>
          withNativeRequest(request, {
            format,
            body: JSON.parse(`{${JSON.stringify(name)}:16}`),
            headers: {},
          }),
        ).toThrow(/unknown parameter/);
      expect(() =>
        withNativeRequest(request, { format, body: { seed: 1, future_field: 2 }, headers: {} }),
      ).not.toThrow();
    }
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
