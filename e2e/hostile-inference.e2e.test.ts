import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Json } from "./hostile/bodies.js";
import { type HostileGateway, startHostileGateway, type UpstreamName } from "./hostile/gateway.js";
import { hostileLookupSuite, hostileRouteSuite } from "./hostile/route-suite.js";
import { expectHandled, Tally, type Target } from "./hostile/suite.js";
import { type Answer, send } from "./hostile/wire.js";

// Property-based hostile input (fast-check) against every inference surface of the embedded default,
// run as a process with the OpenAI, Anthropic and Gemini fakes as its providers (issue 16). For every
// generated case: no 5xx, the surface's own error shape, and a refusal forwards nothing upstream (so
// nothing is billed). HOSTILE_CASES sets the cases per property (test-only; default in suite.ts).

const BODY_LIMIT_BYTES = 1024 * 1024;
const BODY_TIMEOUT_MS = 1_500;

vi.setConfig({ testTimeout: 120_000 });

let gateway: HostileGateway;
const gw = () => gateway;

beforeAll(async () => {
  gateway = await startHostileGateway({
    env: { BODY_LIMIT: "1mb", BODY_TIMEOUT_MS: String(BODY_TIMEOUT_MS) },
  });
}, 120_000);

afterAll(async () => {
  await gateway?.stop();
});

const bearer = (): [string, string] => ["authorization", `Bearer ${gateway.apiKey}`];
const xApiKey = (): [string, string] => ["x-api-key", gateway.apiKey];
const googKey = (): [string, string] => ["x-goog-api-key", gateway.apiKey];
/** Nothing reached a provider: a refused inference call is neither forwarded nor billed. */
const upstream = async () => gateway.upstreamCounts();
/**
 * A provider's own refusal relayed by the proxy: the fake received exactly this one request and
 * refused it with the status the caller got (counted on the fake's side, see relayedRefusal).
 */
const relayedFrom =
  (provider: UpstreamName) =>
  (answer: Answer, before: unknown, after: unknown): boolean =>
    gateway.relayedRefusal(provider, answer, before, after);
/**
 * The native surfaces pass the caller's body to a same-format provider as sent (issue 12, edge README
 * "Native pass-through"): a nested member name the gateway does not refuse (`%ff`, `../`) reaches the
 * strict fake, whose own refusal is relayed with its message. Recognised by that message and by the
 * fake's own count and status.
 */
const nativeRefusal =
  (provider: UpstreamName, pattern: RegExp) =>
  (answer: Answer, before: unknown, after: unknown): boolean => {
    const error = (answer.json as { error?: { message?: unknown } } | undefined)?.error;
    return (
      typeof error?.message === "string" &&
      pattern.test(error.message) &&
      gateway.relayedRefusal(provider, answer, before, after)
    );
  };
// Anthropic's validation errors name the field: an unknown member, or a value outside its type (a media
// type, for example); Gemini's an unknown member, or an inline MIME type it does not read.
const anthropicRefusal = nativeRefusal("anthropic", /: (Extra inputs are not permitted|Input should be .+)$/);
const geminiRefusal = nativeRefusal(
  "gemini",
  /^(Invalid JSON payload received\. Unknown name |Unsupported MIME type: )/,
);
const limits = { bodyLimitBytes: BODY_LIMIT_BYTES, bodyTimeoutMs: BODY_TIMEOUT_MS };
const user = [{ role: "user", content: "hello" }];
const geminiBody = {
  contents: [{ role: "user", parts: [{ text: "hello" }] }],
  systemInstruction: { parts: [{ text: "be brief" }] },
  generationConfig: { maxOutputTokens: 16, temperature: 0.5, stopSequences: ["x"] },
};

describe("hostile input: chat completions", () => {
  it("serves the valid template (the properties start from a body that works)", async () => {
    const answer = await send(gateway.url, {
      method: "POST",
      path: "/v1/chat/completions",
      headers: { authorization: `Bearer ${gateway.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "openai/gpt-4o-mini", messages: user, max_tokens: 16 }),
    });
    expect(answer.status).toBe(200);
  });
  hostileRouteSuite(gw, {
    name: "chat completions",
    method: "POST",
    path: () => "/v1/chat/completions",
    shape: "openai",
    auth: bearer,
    state: upstream,
    template: {
      model: "openai/gpt-4o-mini",
      messages: [
        { role: "system", content: "be brief" },
        { role: "user", content: [{ type: "text", text: "hello" }] },
      ],
      max_tokens: 16,
      temperature: 0.5,
      stream: false,
      provider: { order: ["openai"], allow_fallbacks: true },
      tools: [{ type: "function", function: { name: "f", parameters: { type: "object", properties: {} } } }],
    },
    ...limits,
  });
});

describe("hostile input: embeddings", () => {
  hostileRouteSuite(gw, {
    name: "embeddings",
    method: "POST",
    path: () => "/v1/embeddings",
    shape: "openai",
    auth: bearer,
    state: upstream,
    template: { model: "openai/text-embedding-3-small", input: ["hello", "there"], dimensions: 8 },
    ...limits,
  });
});

describe("hostile input: Anthropic /v1/messages", () => {
  hostileRouteSuite(gw, {
    name: "messages",
    method: "POST",
    path: () => "/v1/messages",
    shape: "anthropic",
    auth: xApiKey,
    state: upstream,
    relayed: anthropicRefusal,
    template: {
      model: "anthropic/claude-3-5-haiku",
      max_tokens: 16,
      system: [{ type: "text", text: "be brief" }],
      messages: [{ role: "user", content: [{ type: "text", text: "hello" }] }],
      stop_sequences: ["x"],
    },
    ...limits,
  });
  hostileRouteSuite(gw, {
    name: "count tokens",
    method: "POST",
    path: () => "/v1/messages/count_tokens",
    shape: "anthropic",
    auth: xApiKey,
    state: upstream,
    template: { model: "anthropic/claude-3-5-haiku", messages: [{ role: "user", content: "hello" }] },
  });
});

describe("hostile input: Gemini generateContent / streamGenerateContent", () => {
  hostileRouteSuite(gw, {
    name: "gemini generateContent",
    method: "POST",
    path: () => "/v1beta/models/gemini-2.5-flash:generateContent",
    shape: "gemini",
    auth: googKey,
    state: upstream,
    relayed: geminiRefusal,
    template: geminiBody,
    ...limits,
  });
  hostileRouteSuite(gw, {
    name: "gemini streamGenerateContent",
    method: "POST",
    path: () => "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
    shape: "gemini",
    auth: googKey,
    state: upstream,
    relayed: geminiRefusal,
    template: geminiBody,
  });
  hostileLookupSuite(gw, {
    name: "gemini model segment",
    method: "POST",
    target: (segment) => `/v1beta/models/${segment}:generateContent`,
    shape: "gemini",
    auth: googKey,
    state: upstream,
    body: geminiBody,
  });
});

// Issue 29/32: the media parts and the plugins, so the generators mutate their shapes too (a data URL's
// scheme and base64, a file part's members, a plugin's id and options, a transform's name), on each of
// the three formats the gateway reads them in.
const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==";
// One page of text ("quarterly report: revenue up"), built by apps/edge/src/test/pdf.ts tinyPdf: the
// file-parser plugin reads it.
const PDF =
  "JVBERi0xLjQKMSAwIG9iago8PCAvVHlwZSAvQ2F0YWxvZyAvUGFnZXMgMiAwIFIgPj4KZW5kb2JqCjIgMCBvYmoKPDwgL1R5cGUgL1BhZ2VzIC9LaWRzIFs0IDAgUl0gL0NvdW50IDEgPj4KZW5kb2JqCjMgMCBvYmoKPDwgL1R5cGUgL0ZvbnQgL1N1YnR5cGUgL1R5cGUxIC9CYXNlRm9udCAvSGVsdmV0aWNhID4+CmVuZG9iago0IDAgb2JqCjw8IC9UeXBlIC9QYWdlIC9QYXJlbnQgMiAwIFIgL01lZGlhQm94IFswIDAgNjEyIDc5Ml0gL0NvbnRlbnRzIDUgMCBSIC9SZXNvdXJjZXMgPDwgL0ZvbnQgPDwgL0YxIDMgMCBSID4+ID4+ID4+CmVuZG9iago1IDAgb2JqCjw8IC9MZW5ndGggNTkgPj4Kc3RyZWFtCkJUIC9GMSAxMiBUZiA3MiA3MDAgVGQgKHF1YXJ0ZXJseSByZXBvcnQ6IHJldmVudWUgdXApIFRqIEVUCmVuZHN0cmVhbQplbmRvYmoKeHJlZgowIDYKMDAwMDAwMDAwMCA2NTUzNSBmIAowMDAwMDAwMDA5IDAwMDAwIG4gCjAwMDAwMDAwNTggMDAwMDAgbiAKMDAwMDAwMDExNSAwMDAwMCBuIAowMDAwMDAwMTg1IDAwMDAwIG4gCjAwMDAwMDAzMTEgMDAwMDAgbiAKdHJhaWxlcgo8PCAvU2l6ZSA2IC9Sb290IDEgMCBSID4+CnN0YXJ0eHJlZgo0MjAKJSVFT0YK";
const chatMedia: Json = {
  model: "openai/gpt-4o-mini",
  messages: [
    {
      role: "user",
      content: [
        { type: "text", text: "what is in these?" },
        { type: "image_url", image_url: { url: `data:image/png;base64,${PNG}`, detail: "low" } },
        { type: "file", file: { filename: "report.pdf", file_data: `data:application/pdf;base64,${PDF}` } },
      ],
    },
  ],
  max_tokens: 16,
  plugins: [{ id: "file-parser", pdf: { engine: "pdf-text" } }],
  transforms: ["middle-out"],
};
const messagesMedia: Json = {
  model: "anthropic/claude-3-5-haiku",
  max_tokens: 16,
  messages: [
    {
      role: "user",
      content: [
        { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
        {
          type: "document",
          source: { type: "base64", media_type: "application/pdf", data: PDF },
          title: "r.pdf",
        },
        { type: "text", text: "what is in these?" },
      ],
    },
  ],
};
const geminiMedia: Json = {
  contents: [
    {
      role: "user",
      parts: [
        { inlineData: { mimeType: "image/png", data: PNG } },
        { inlineData: { mimeType: "application/pdf", data: PDF } },
        { text: "what is in these?" },
      ],
    },
  ],
  generationConfig: { maxOutputTokens: 16 },
};

describe("hostile input: media parts and plugins", () => {
  it("serves each valid template (the properties start from bodies that work)", async () => {
    const calls: [string, [string, string], unknown][] = [
      ["/v1/chat/completions", bearer(), chatMedia],
      ["/v1/messages", xApiKey(), messagesMedia],
      ["/v1beta/models/gemini-2.5-flash:generateContent", googKey(), geminiMedia],
    ];
    for (const [path, [name, value], body] of calls) {
      const answer = await send(gateway.url, {
        method: "POST",
        path,
        headers: { [name]: value, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(answer.status, `${path}: ${JSON.stringify(answer.json)}`).toBe(200);
    }
  });
  hostileRouteSuite(gw, {
    name: "chat completions with media and plugins",
    method: "POST",
    path: () => "/v1/chat/completions",
    shape: "openai",
    auth: bearer,
    state: upstream,
    template: chatMedia,
    ...limits,
  });
  hostileRouteSuite(gw, {
    name: "messages with an image and a document",
    method: "POST",
    path: () => "/v1/messages",
    shape: "anthropic",
    auth: xApiKey,
    state: upstream,
    relayed: anthropicRefusal,
    template: messagesMedia,
  });
  hostileRouteSuite(gw, {
    name: "gemini generateContent with inline data",
    method: "POST",
    path: () => "/v1beta/models/gemini-2.5-flash:generateContent",
    shape: "gemini",
    auth: googKey,
    state: upstream,
    relayed: geminiRefusal,
    template: geminiMedia,
  });
});

describe("hostile input: the provider proxy", () => {
  hostileRouteSuite(gw, {
    name: "proxy openai chat",
    method: "POST",
    path: () => "/openai/v1/chat/completions",
    shape: "openai",
    auth: bearer,
    state: upstream,
    relayed: relayedFrom("openai"),
    template: { model: "gpt-4o-mini", messages: user, max_tokens: 16, stream: false },
    ...limits,
  });
  hostileRouteSuite(gw, {
    name: "proxy anthropic messages",
    method: "POST",
    path: () => "/anthropic/v1/messages",
    shape: "anthropic",
    auth: xApiKey,
    state: upstream,
    relayed: relayedFrom("anthropic"),
    template: { model: "claude-3-5-haiku-20241022", max_tokens: 16, messages: user },
  });
  hostileRouteSuite(gw, {
    name: "proxy google generateContent",
    method: "POST",
    path: () => "/google/v1beta/models/gemini-2.5-flash:generateContent",
    shape: "gemini",
    auth: googKey,
    state: upstream,
    relayed: relayedFrom("gemini"),
    template: geminiBody,
  });
  hostileLookupSuite(gw, {
    name: "proxy openai path",
    method: "POST",
    target: (segment) => `/openai/v1/${segment}`,
    shape: "openai",
    auth: bearer,
    state: upstream,
    body: { model: "gpt-4o-mini", messages: user },
  });
});

// Issue 33's depth class: JSON inside a JSON string escapes the body's depth limit, and the gateway
// parses tool-call arguments and tool results to translate them, then writes them out recursively
// (JSON.stringify overflows the stack near 5,000 levels): a 500 before the parse was bounded. Before the
// batches: their items reach the providers in the background, which would move the upstream count.
describe("hostile input: JSON nested 10,000 deep inside a string of the body", () => {
  const tally = new Tally("JSON inside strings");
  const target: Target = { shape: "openai", tally, state: upstream };
  afterAll(() => {
    console.log(tally.summary());
    expect(tally.serverErrors).toBe(0);
  });
  const deep = `{"a":${"[".repeat(10_000)}${"]".repeat(10_000)}}`;
  const chat = (body: unknown) =>
    send(gateway.url, {
      method: "POST",
      path: "/v1/chat/completions",
      headers: { authorization: `Bearer ${gateway.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const toolTurn = (model: string, content: string, args: string) => ({
    model,
    max_tokens: 16,
    messages: [
      { role: "user", content: "hello" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "call_1", type: "function", function: { name: "f", arguments: args } }],
      },
      { role: "tool", tool_call_id: "call_1", content },
    ],
    tools: [{ type: "function", function: { name: "f", parameters: { type: "object", properties: {} } } }],
  });

  it("tool-call arguments translated for Anthropic and Gemini are a 400, not a 500", async () => {
    for (const model of ["anthropic/claude-3-5-haiku", "google/gemini-2.5-flash"]) {
      const answer = await expectHandled(target, `arguments for ${model}`, () =>
        chat(toolTurn(model, "sunny", deep)),
      );
      expect(answer.status, model).toBe(400);
    }
  });

  it("a tool result translated for Gemini goes as text, not a 500", async () => {
    const answer = await expectHandled(target, "tool result for Gemini", () =>
      chat(toolTurn("google/gemini-2.5-flash", deep, "{}")),
    );
    expect(answer.status, answer.text.slice(0, 200)).toBe(200);
  });
});

// Last: an accepted batch is executed in the background (upstream calls at any time), so this family's
// refusals are checked against the stored batches, not the upstream count.
describe("hostile input: message batches", () => {
  const batchIds = async () => {
    const answer = await send(gateway.url, {
      method: "GET",
      path: "/v1/messages/batches?limit=1000",
      headers: { "x-api-key": gateway.apiKey },
    });
    expect(answer.status).toBe(200);
    return (answer.json as { data: { id: string }[] }).data.map((batch) => batch.id).sort();
  };
  hostileRouteSuite(gw, {
    name: "message batches",
    method: "POST",
    path: () => "/v1/messages/batches",
    shape: "anthropic",
    auth: xApiKey,
    state: batchIds,
    template: {
      requests: [
        {
          custom_id: "first",
          params: {
            model: "anthropic/claude-3-5-haiku",
            max_tokens: 16,
            messages: [{ role: "user", content: "hello" }],
          },
        },
      ],
    },
    ...limits,
  });
  hostileLookupSuite(gw, {
    name: "message batch lookup",
    method: "GET",
    target: (segment) => `/v1/messages/batches/${segment}`,
    shape: "anthropic",
    auth: xApiKey,
    state: batchIds,
  });
  hostileLookupSuite(gw, {
    name: "message batch list query",
    method: "GET",
    target: (segment) => `/v1/messages/batches?limit=${segment}&before_id=${segment}&after_id=${segment}`,
    shape: "anthropic",
    auth: xApiKey,
    state: batchIds,
  });
});
