import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeAnthropic } from "./anthropic/server.js";
import type { FakeServer } from "./core/server.js";
import { startFakeGemini } from "./gemini/server.js";
import { startFakeOpenAi } from "./openai/server.js";

// The fakes refuse what the real APIs refuse, with their error bodies, and report prompt caching under
// the `cache` scenario: a gateway that forwards a wrong body, or loses cached tokens, fails a test.

const KEY = "sk-strict-test";
let openai: FakeServer;
let openrouter: FakeServer;
let anthropic: FakeServer;
let gemini: FakeServer;

beforeAll(async () => {
  [openai, openrouter, anthropic, gemini] = await Promise.all([
    startFakeOpenAi({ apiKey: KEY }),
    startFakeOpenAi({ apiKey: KEY, extraChatFields: ["reasoning"] }),
    startFakeAnthropic({ apiKey: KEY }),
    startFakeGemini({ apiKey: KEY }),
  ]);
});
afterAll(() => Promise.all([openai, openrouter, anthropic, gemini].map((s) => s.close())));

const post = (url: string, body: unknown, headers: Record<string, string>) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
const openAiPost = (server: FakeServer, path: string, body: unknown, headers: Record<string, string> = {}) =>
  post(`${server.baseUrl}${path}`, body, { authorization: `Bearer ${KEY}`, ...headers });
const anthropicPost = (body: unknown, headers: Record<string, string> = {}, path = "/v1/messages") =>
  post(`${anthropic.url}${path}`, body, { "x-api-key": KEY, "anthropic-version": "2023-06-01", ...headers });
const geminiPost = (action: string, body: unknown, headers: Record<string, string> = {}) =>
  post(`${gemini.url}/v1beta/models/gemini-2.5-flash:${action}`, body, { "x-goog-api-key": KEY, ...headers });

const chat = { model: "gpt-4o-mini", messages: [{ role: "user", content: "Hi" }] };

describe("OpenAI: unknown top-level fields", () => {
  it("refuses a field the chat API does not have, as the API does", async () => {
    const response = await openAiPost(openai, "/chat/completions", { ...chat, top_k: 5 });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: {
        message: "Unrecognized request argument supplied: top_k",
        type: "invalid_request_error",
        param: null,
        code: null,
      },
    });
  });

  it("names every unknown field, and accepts the documented ones", async () => {
    const bad = await openAiPost(openai, "/chat/completions", { ...chat, top_k: 5, thinking: {} });
    expect(((await bad.json()) as { error: { message: string } }).error.message).toBe(
      "Unrecognized request arguments supplied: top_k, thinking",
    );
    const good = await openAiPost(openai, "/chat/completions", {
      ...chat,
      seed: 1,
      logprobs: true,
      parallel_tool_calls: false,
      response_format: { type: "json_object" },
      reasoning_effort: "low",
      prompt_cache_key: "k",
    });
    expect(good.status).toBe(200);
  });

  it("lets a host declared with extra fields take them (OpenRouter's reasoning)", async () => {
    const body = { ...chat, reasoning: { effort: "low" } };
    expect((await openAiPost(openrouter, "/chat/completions", body)).status).toBe(200);
    expect((await openAiPost(openai, "/chat/completions", body)).status).toBe(400);
  });

  it("refuses unknown embeddings fields through the SDK as a BadRequestError", async () => {
    const client = new OpenAI({ apiKey: KEY, baseURL: openai.baseUrl, maxRetries: 0 });
    const error = await client.embeddings
      .create({ model: "text-embedding-3-small", input: "x", task_type: "query" } as never)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as Error).message).toContain("Unrecognized request argument supplied: task_type");
  });

  it("reports a repeated prefix as cached tokens under the cache scenario", async () => {
    const body = {
      ...chat,
      messages: [
        { role: "system", content: "A long shared system prompt. ".repeat(20) },
        { role: "user", content: "first" },
      ],
    };
    const usage = async (headers: Record<string, string>) =>
      (
        (await (await openAiPost(openai, "/chat/completions", body, headers)).json()) as {
          usage: { prompt_tokens: number; prompt_tokens_details: { cached_tokens: number } };
        }
      ).usage;
    expect((await usage({ "x-fake-scenario": "cache" })).prompt_tokens_details.cached_tokens).toBe(0);
    const repeat = await usage({ "x-fake-scenario": "cache" });
    // The system message: 580 characters = 145 tokens + 3 for the message.
    expect(repeat.prompt_tokens_details.cached_tokens).toBe(148);
    expect(repeat.prompt_tokens).toBeGreaterThan(148);
    expect((await usage({})).prompt_tokens_details.cached_tokens).toBe(0);
  });
});

const message = {
  model: "claude-sonnet-4-20250514",
  max_tokens: 100,
  messages: [{ role: "user", content: "Hi" }],
};
const anthropicError = async (response: Response) => {
  expect(response.status).toBe(400);
  const body = (await response.json()) as { type: string; error: { type: string; message: string } };
  expect(body.type).toBe("error");
  expect(body.error.type).toBe("invalid_request_error");
  return body.error.message;
};

describe("Anthropic: unknown or misplaced fields", () => {
  it("refuses an unknown top-level field, e.g. OpenAI's response_format", async () => {
    expect(
      await anthropicError(await anthropicPost({ ...message, response_format: { type: "json_object" } })),
    ).toBe("response_format: Extra inputs are not permitted");
  });

  it("refuses misplaced fields in messages, content blocks, system blocks and tools", async () => {
    const cases: [unknown, string][] = [
      [{ ...message, messages: [{ role: "user", content: "Hi", name: "bob" }] }, "messages.0.name"],
      [
        { ...message, messages: [{ role: "user", content: [{ type: "text", text: "Hi", index: 0 }] }] },
        "messages.0.content.0.text.index",
      ],
      [{ ...message, system: [{ type: "text", text: "S", name: "x" }] }, "system.0.name"],
      [
        {
          ...message,
          system: [{ type: "text", text: "S", cache_control: { type: "ephemeral", scope: "x" } }],
        },
        "system.0.cache_control.ephemeral.scope",
      ],
      [
        { ...message, tools: [{ name: "t", input_schema: { type: "object" }, defer_loading: true }] },
        "tools.0.custom.defer_loading",
      ],
      [{ ...message, stream_options: { include_usage: true } }, "stream_options"],
    ];
    for (const [body, path] of cases) {
      expect(await anthropicError(await anthropicPost(body))).toBe(`${path}: Extra inputs are not permitted`);
    }
  });

  it("accepts cache_control with a ttl, and refuses a ttl the API does not have", async () => {
    const marked = (ttl: string) => ({
      ...message,
      system: [{ type: "text", text: "S", cache_control: { type: "ephemeral", ttl } }],
    });
    expect((await anthropicPost(marked("1h"))).status).toBe(200);
    expect(await anthropicError(await anthropicPost(marked("2h")))).toMatch(
      /ttl: Input should be '5m' or '1h'/,
    );
  });

  it("knows a beta's fields only when anthropic-beta turns the beta on", async () => {
    const body = { ...message, output_format: { type: "json_schema", schema: { type: "object" } } };
    expect(await anthropicError(await anthropicPost(body))).toBe(
      "output_format: Extra inputs are not permitted",
    );
    const beta = await anthropicPost(body, {
      "anthropic-beta": "foo-2025-01-01, structured-outputs-2025-11-13",
    });
    expect(beta.status).toBe(200);
  });

  it("refuses max_tokens on count_tokens, where it is not a field", async () => {
    expect(await anthropicError(await anthropicPost(message, {}, "/v1/messages/count_tokens"))).toBe(
      "max_tokens: Extra inputs are not permitted",
    );
  });

  it("refuses sampling changes and forced tools with thinking on, as the docs say", async () => {
    const thinking = { ...message, max_tokens: 2048, thinking: { type: "enabled", budget_tokens: 1024 } };
    expect(await anthropicError(await anthropicPost({ ...thinking, temperature: 0.2 }))).toMatch(
      /^`temperature`/,
    );
    expect(await anthropicError(await anthropicPost({ ...thinking, top_k: 5 }))).toMatch(/^`top_k`/);
    expect((await anthropicPost({ ...thinking, temperature: 1, top_p: 0.95 })).status).toBe(200);
  });

  it("writes then reads the prompt cache at cache_control breakpoints (SDK, cache scenario)", async () => {
    const client = new Anthropic({
      apiKey: KEY,
      baseURL: anthropic.baseUrl,
      maxRetries: 0,
      defaultHeaders: { "x-fake-scenario": "cache" },
    });
    const system = "Shared instructions. ".repeat(200); // 4,200 characters = 1,050 tokens, above 1,024
    const create = (question: string) =>
      client.messages.create({
        ...message,
        system: [{ type: "text", text: system, cache_control: { type: "ephemeral" } }],
        messages: [{ role: "user", content: question }],
      });
    const first = await create("one");
    expect(first.usage).toMatchObject({ cache_creation_input_tokens: 1050, cache_read_input_tokens: 0 });
    expect(first.usage.input_tokens).toBe(4); // "one" = 1 token + 3 for the message
    const second = await create("two");
    expect(second.usage).toMatchObject({ cache_creation_input_tokens: 0, cache_read_input_tokens: 1050 });
    expect(second.usage.input_tokens).toBe(4);
  });

  it("does not cache a prefix below the model's minimum, without an error (cache scenario)", async () => {
    const short = "Shared instructions. ".repeat(190); // 3,990 characters = 998 tokens, below 1,024
    const body = {
      ...message,
      system: [{ type: "text", text: short, cache_control: { type: "ephemeral" } }],
    };
    for (let round = 0; round < 2; round++) {
      const response = await anthropicPost(body, { "x-fake-scenario": "cache" });
      expect(response.status).toBe(200);
      const { usage } = (await response.json()) as { usage: Record<string, number> };
      expect(usage).toMatchObject({ cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
      expect(usage.input_tokens).toBe(998 + 4); // all plain input: the system, and "Hi" = 1 token + 3
    }
    // Claude Opus 4.5's minimum is 4,096: the 1,050-token prefix above is not cached for it either.
    const opus = {
      ...body,
      model: "claude-opus-4-5",
      system: [{ ...body.system[0], text: "Shared instructions. ".repeat(200) }],
    };
    const response = await anthropicPost(opus, { "x-fake-scenario": "cache" });
    expect(((await response.json()) as { usage: Record<string, number> }).usage).toMatchObject({
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    });
  });

  it("refuses a fifth cache_control block with the API's message", async () => {
    const marked = (text: string) => ({ type: "text", text, cache_control: { type: "ephemeral" } });
    const four = {
      ...message,
      system: [marked("a"), marked("b")],
      messages: [{ role: "user", content: [marked("c"), marked("d")] }],
    };
    expect((await anthropicPost(four)).status).toBe(200);
    const five = {
      ...four,
      tools: [{ name: "t", input_schema: { type: "object" }, cache_control: { type: "ephemeral" } }],
    };
    expect(await anthropicError(await anthropicPost(five))).toBe(
      "A maximum of 4 blocks with cache_control may be provided. Found 5.",
    );
    expect(
      await anthropicError(
        await anthropicPost({ ...five, max_tokens: undefined }, {}, "/v1/messages/count_tokens"),
      ),
    ).toMatch(/^A maximum of 4/);
  });

  it("refuses a 1-hour breakpoint after a 5-minute one (tools, system, messages order), as the API does", async () => {
    const marker = (ttl?: string) => ({ type: "ephemeral", ...(ttl ? { ttl } : {}) });
    const hourFirst = {
      ...message,
      tools: [{ name: "t", input_schema: { type: "object" }, cache_control: marker("1h") }],
      system: [{ type: "text", text: "s", cache_control: marker("5m") }],
    };
    expect((await anthropicPost(hourFirst)).status).toBe(200);
    // A marker without ttl is a 5-minute one; the 1-hour one comes after it in the messages.
    const hourLater = {
      ...message,
      system: [{ type: "text", text: "s", cache_control: marker() }],
      messages: [{ role: "user", content: [{ type: "text", text: "x", cache_control: marker("1h") }] }],
    };
    expect(await anthropicError(await anthropicPost(hourLater))).toBe(
      "messages.0.content.0.cache_control.ttl: a ttl='1h' cache_control block must not come after a ttl='5m' cache_control block. Note that blocks are processed in the following order: tools, system, messages.",
    );
  });
});

const generate = { contents: [{ role: "user", parts: [{ text: "Hi" }] }] };
const geminiError = async (response: Response) => {
  expect(response.status).toBe(400);
  const body = (await response.json()) as {
    error: { code: number; status: string; message: string; details: { fieldViolations: unknown[] }[] };
  };
  expect(body.error.code).toBe(400);
  expect(body.error.status).toBe("INVALID_ARGUMENT");
  return body.error;
};

describe("Gemini: unknown fields, in either spelling", () => {
  it("refuses an unknown top-level name with a BadRequest detail", async () => {
    const error = await geminiError(await geminiPost("generateContent", { ...generate, temperature: 0.5 }));
    expect(error.message).toBe(
      'Invalid JSON payload received. Unknown name "temperature": Cannot find field.',
    );
    expect(error.details[0]).toEqual({
      "@type": "type.googleapis.com/google.rpc.BadRequest",
      fieldViolations: [{ description: error.message }],
    });
  });

  it("names nested unknown fields by their snake_case path, all of them", async () => {
    const error = await geminiError(
      await geminiPost("streamGenerateContent", {
        ...generate,
        generationConfig: { maxOutputTokens: 5, max_tokens: 5, thinkingConfig: { budget: 1 } },
      }),
    );
    expect(error.message).toBe(
      [
        `Invalid JSON payload received. Unknown name "max_tokens" at 'generation_config': Cannot find field.`,
        `Invalid JSON payload received. Unknown name "budget" at 'generation_config.thinking_config': Cannot find field.`,
      ].join("\n"),
    );
    expect(error.details[0]?.fieldViolations).toHaveLength(2);
  });

  it("accepts snake_case names as the same fields (proto JSON parsing)", async () => {
    const response = await geminiPost("generateContent", {
      contents: [{ role: "user", parts: [{ text: "a long enough sentence to be cut" }] }],
      system_instruction: { parts: [{ text: "Be brief" }] },
      generation_config: { max_output_tokens: 2, thinking_config: { thinking_budget: 0 } },
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { candidates: { finishReason: string }[] };
    expect(body.candidates[0]?.finishReason).toBe("MAX_TOKENS");
  });

  it("refuses JSON Schema keywords in `parameters`, not in `parametersJsonSchema`", async () => {
    const schema = { type: "object", properties: { city: { type: "string" } }, additionalProperties: false };
    const tools = (declaration: Record<string, unknown>) => ({
      ...generate,
      tools: [{ functionDeclarations: [{ name: "get_weather", ...declaration }] }],
    });
    const error = await geminiError(await geminiPost("generateContent", tools({ parameters: schema })));
    expect(error.message).toContain(
      `Unknown name "additionalProperties" at 'tools[0].function_declarations[0].parameters'`,
    );
    expect((await geminiPost("generateContent", tools({ parametersJsonSchema: schema }))).status).toBe(200);
  });

  it("treats Object's own property names as unknown names, never as a crash", async () => {
    const error = await geminiError(
      await geminiPost("generateContent", { ...generate, constructor: {}, toString: 1 }),
    );
    expect(error.message).toContain('Unknown name "constructor"');
    const block = { role: "user", content: [{ type: "constructor", text: "x" }] };
    const response = await anthropicPost({ ...message, messages: [block] });
    expect(response.status).toBeLessThan(500);
  });

  it("refuses unknown embedding fields", async () => {
    const response = await post(
      `${gemini.url}/v1beta/models/text-embedding-004:embedContent`,
      { content: { parts: [{ text: "x" }] }, dimensions: 3 },
      { "x-goog-api-key": KEY },
    );
    expect((await geminiError(response)).message).toContain('Unknown name "dimensions"');
  });

  it("reports a repeated prefix as cachedContentTokenCount under the cache scenario", async () => {
    const body = {
      contents: [
        { role: "user", parts: [{ text: "Earlier turn. ".repeat(20) }] },
        { role: "model", parts: [{ text: "ok" }] },
        { role: "user", parts: [{ text: "now" }] },
      ],
    };
    const usage = async () =>
      (
        (await (await geminiPost("generateContent", body, { "x-fake-scenario": "cache" })).json()) as {
          usageMetadata: { promptTokenCount: number; cachedContentTokenCount?: number };
        }
      ).usageMetadata;
    expect((await usage()).cachedContentTokenCount).toBeUndefined();
    const repeat = await usage();
    expect(repeat.cachedContentTokenCount).toBe(71); // 280 characters = 70 tokens, "ok" = 1
    expect(repeat.promptTokenCount).toBe(72);
  });
});
