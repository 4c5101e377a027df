import Anthropic from "@anthropic-ai/sdk";
import { GoogleGenAI } from "@google/genai";
import OpenAI from "openai";
import type { ChatCompletionCreateParamsNonStreaming } from "openai/resources/chat/completions";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GATEWAY_FIELD_REASONS } from "../providers/gateway-fields.js";
import { type EdgeHarness, startEdgeHarness } from "../test/harness.js";
import { testKey } from "../test/principals.js";

// Issue 12, the field families of native to native, surface × target on the strict fakes: a field the
// gateway does not know reaches the provider as sent (the fake's 400 for a really unknown one comes back
// with the fake's own message, and is not failed over); the gateway's own fields never reach it; an
// unknown field cannot go to an endpoint of another format (excluded from the plan, or the caller's 400
// naming it when nothing is left); the official SDKs' extra body parameters arrive unchanged.

const key = testKey("acct-native-unknown-fields");
let edge: EdgeHarness;

beforeAll(async () => {
  edge = await startEdgeHarness({ keys: [key] });
});

afterAll(async () => {
  await edge?.stop();
});

beforeEach(() => {
  for (const fake of [edge.primary, edge.backup, edge.anthropic, edge.gemini]) {
    fake.resetScenario();
    fake.clearRequests();
  }
});

type Fake = EdgeHarness["anthropic"];
const bodies = (fake: Fake) => fake.requests().map((request) => request.body as Record<string, unknown>);
// Every gateway-only field with a value the gateway accepts (OpenRouter's shapes).
const GATEWAY_FIELDS = {
  provider: { allow_fallbacks: true },
  models: [],
  route: "fallback",
  transforms: [],
  plugins: [],
  usage: { include: true },
};
const gatewayNames = Object.keys(GATEWAY_FIELD_REASONS);

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${edge.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

const chat = (body: Record<string, unknown>) =>
  post("/v1/chat/completions", body, { authorization: `Bearer ${key.secret}` });
const messages = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  post("/v1/messages", body, { "x-api-key": key.secret, "anthropic-version": "2023-06-01", ...headers });
const gemini = (body: Record<string, unknown>, model = "google/gemini-test") =>
  post(`/v1beta/models/${model}:generateContent`, body, { "x-goog-api-key": key.secret });

const user = [{ role: "user", content: "hi" }];
const contents = [{ role: "user", parts: [{ text: "hi" }] }];
const claude = { model: "anthropic/claude-test", max_tokens: 16, messages: user };
const errorMessage = (json: Record<string, unknown>) => (json.error as { message?: string }).message ?? "";

describe("chat completions → OpenAI-compatible", () => {
  it("sends an unknown field as sent; the provider's 400 comes back with its message and is not failed over", async () => {
    const answer = await chat({ model: "test/failover", messages: user, future_field: { a: 1 } });
    expect(answer.status).toBe(400);
    expect(errorMessage(answer.json)).toBe("Unrecognized request argument supplied: future_field");
    const sent = [...bodies(edge.primary), ...bodies(edge.backup)];
    expect(sent).toHaveLength(1);
    expect(sent[0]?.future_field).toEqual({ a: 1 });
  });

  it("sends a provider field the gateway does not translate, and never the gateway's own fields", async () => {
    const prediction = { type: "content", content: "hello" };
    const answer = await chat({ model: "openai/gpt-4o-mini", messages: user, prediction, ...GATEWAY_FIELDS });
    expect(answer.status).toBe(200);
    const sent = bodies(edge.primary)[0] ?? {};
    expect(sent.prediction).toEqual(prediction);
    for (const name of gatewayNames) expect(sent).not.toHaveProperty(name);
  });

  it("excludes an endpoint of another format for an unknown field, and refuses it by name when none is left", async () => {
    edge.primary.setScenario({ name: "fail", status: 503 });
    const failedOver = await chat({
      model: "openai/gpt-4o-mini",
      models: ["anthropic/claude-test"],
      messages: user,
      future_field: 1,
    });
    // Without the exclusion the Anthropic attempt would have been built and refused (a 400).
    expect(failedOver.status).toBe(502);
    expect(edge.anthropic.requests()).toEqual([]);
    const refused = await chat({ model: "anthropic/claude-test", messages: user, future_field: 1 });
    expect(refused.status).toBe(400);
    expect(errorMessage(refused.json)).toMatch(/^future_field cannot be sent to this model/);
    expect(edge.anthropic.requests()).toEqual([]);
  });

  it("openai SDK: an extra body parameter reaches the provider unchanged, and its refusal comes back", async () => {
    const openai = new OpenAI({ apiKey: key.secret, baseURL: `${edge.url}/v1`, maxRetries: 0 });
    const params = { model: "openai/gpt-4o-mini", messages: user, extra_param: [1, "two"] };
    const error = await openai.chat.completions
      .create(params as ChatCompletionCreateParamsNonStreaming)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as Error).message).toContain("Unrecognized request argument supplied: extra_param");
    expect(bodies(edge.primary)[0]?.extra_param).toEqual([1, "two"]);
  });
});

describe("Anthropic /v1/messages → Anthropic", () => {
  it("sends an unknown field as sent; Anthropic's 400 comes back in its shape with its message", async () => {
    const answer = await messages({ ...claude, future_field: true });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({
      type: "error",
      error: { type: "invalid_request_error", message: "future_field: Extra inputs are not permitted" },
    });
    expect(bodies(edge.anthropic)[0]?.future_field).toBe(true);
  });

  it("sends an untranslated output_config key as sent, and never the gateway's own fields", async () => {
    const output_config = { effort: "low" };
    const answer = await messages({ ...claude, output_config, ...GATEWAY_FIELDS });
    expect(answer.status).toBe(200);
    const sent = bodies(edge.anthropic)[0] ?? {};
    expect(sent.output_config).toEqual(output_config);
    for (const name of gatewayNames) expect(sent).not.toHaveProperty(name);
  });

  it("excludes an endpoint of another format for an unknown field, and refuses it by name when none is left", async () => {
    edge.anthropic.setScenario({ name: "fail", status: 503 });
    const failedOver = await messages({
      ...claude,
      models: ["openai/gpt-4o-mini"],
      output_config: { effort: "low" },
    });
    expect(failedOver.status).toBe(502);
    expect(edge.primary.requests()).toEqual([]);
    const refused = await messages({ ...claude, model: "openai/gpt-4o-mini", future_field: 1 });
    expect(refused.status).toBe(400);
    expect(errorMessage(refused.json)).toMatch(/^future_field: only anthropic's own API takes it/);
    expect(edge.primary.requests()).toEqual([]);
  });

  it("refuses the fields on its refusal list before any provider is called", async () => {
    for (const field of ["container", "service_tier"]) {
      const answer = await messages({ ...claude, [field]: "auto" });
      expect(answer.status).toBe(400);
      expect(errorMessage(answer.json)).toContain(`${field} cannot be sent to this model`);
    }
    expect(edge.anthropic.requests()).toEqual([]);
  });

  it("@anthropic-ai/sdk: an extra body parameter reaches the provider unchanged, and its refusal comes back", async () => {
    const anthropic = new Anthropic({ apiKey: key.secret, baseURL: edge.url, maxRetries: 0 });
    const params = { ...claude, messages: [{ role: "user" as const, content: "hi" }], extra_param: { x: 1 } };
    const error = await anthropic.messages.create(params).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as Error).message).toContain("extra_param: Extra inputs are not permitted");
    expect(bodies(edge.anthropic)[0]?.extra_param).toEqual({ x: 1 });
  });
});

describe("Gemini surface → Google", () => {
  it("sends an unknown field as sent; Google's 400 comes back in its shape with its message", async () => {
    const answer = await gemini({ contents, futureField: 1 });
    expect(answer.status).toBe(400);
    expect(answer.json.error).toMatchObject({ code: 400, status: "INVALID_ARGUMENT" });
    expect(errorMessage(answer.json)).toContain('Unknown name "futureField": Cannot find field.');
    expect(bodies(edge.gemini)[0]?.futureField).toBe(1);
  });

  it("sends an untranslated generationConfig key as sent, and never the gateway's own fields", async () => {
    const generationConfig = { maxOutputTokens: 32, responseModalities: ["TEXT"] };
    const answer = await gemini({ contents, generationConfig, ...GATEWAY_FIELDS });
    expect(answer.status).toBe(200);
    const sent = bodies(edge.gemini)[0] ?? {};
    expect(sent.generationConfig).toEqual(generationConfig);
    for (const name of gatewayNames) expect(sent).not.toHaveProperty(name);
  });

  it("excludes an endpoint of another format for an unknown field, and refuses it by name when none is left", async () => {
    edge.gemini.setScenario({ name: "fail", status: 503 });
    const generationConfig = { responseModalities: ["TEXT"] };
    const failedOver = await gemini({ contents, generationConfig, models: ["openai/gpt-4o-mini"] });
    expect(failedOver.status).toBe(502);
    expect(edge.primary.requests()).toEqual([]);
    const refused = await gemini({ contents, generationConfig }, "openai/gpt-4o-mini");
    expect(refused.status).toBe(400);
    expect(errorMessage(refused.json)).toMatch(/^generationConfig.responseModalities: only gemini's own API/);
    expect(edge.primary.requests()).toEqual([]);
  });

  it("refuses cachedContent (state on the gateway's account) before any provider is called", async () => {
    const answer = await gemini({ contents, cachedContent: "cachedContents/abc" });
    expect(answer.status).toBe(400);
    expect(errorMessage(answer.json)).toContain("cachedContent cannot be sent to this model");
    expect(edge.gemini.requests()).toEqual([]);
  });

  it("@google/genai: httpOptions.extraBody reaches the provider unchanged, and its refusal comes back", async () => {
    const genai = new GoogleGenAI({ apiKey: key.secret, httpOptions: { baseUrl: edge.url } });
    const extraBody = { generationConfig: { responseModalities: ["TEXT"] } };
    const answer = await genai.models.generateContent({
      model: "google/gemini-test",
      contents: "hi",
      config: { httpOptions: { extraBody } },
    });
    expect(answer.text).toBe("Echo: hi");
    expect(bodies(edge.gemini)[0]?.generationConfig).toEqual(extraBody.generationConfig);
    const error = await genai.models
      .generateContent({
        model: "google/gemini-test",
        contents: "hi",
        config: { httpOptions: { extraBody: { futureField: 1 } } },
      })
      .catch((caught: unknown) => caught);
    expect((error as Error).message).toMatch(/Unknown name \\"futureField\\": Cannot find field/);
    expect(bodies(edge.gemini)[1]?.futureField).toBe(1);
  });
});
