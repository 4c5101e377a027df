import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createOpenAI } from "@ai-sdk/openai";
import { freePort } from "@gw/db";
import { OpenRouter } from "@openrouter/sdk";
import { generateText, jsonSchema, stepCountIs, streamText, tool } from "ai";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppProcess, eventually, startProcess, waitForHttp } from "./processes.js";

// Issue 13: OpenAI's Responses API and legacy completions, driven by the official `openai` SDK and by
// the AI SDK's default OpenAI provider (whose `openai(model)` speaks the Responses API), against the
// embedded default as a newcomer runs it, with the demo provider and the printed key.

interface DevCredentials {
  api_key: string;
}

interface GenerationRecord {
  api_type: string;
  provider: string;
  streamed: boolean;
}

const MODEL = "demo/echo";
const weatherParameters = {
  type: "object",
  properties: { city: { type: "string" } },
  required: ["city"],
  additionalProperties: false,
} as const;

describe("Responses API and completions through the SDKs (embedded default)", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "gw-responses-"));
  let gateway: AppProcess | undefined;
  let url: string;
  let apiKey: string;
  let client: OpenAI;

  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    const env: Record<string, string> = { PORT: String(port), GW_DATA_DIR: dataDir, LOG_LEVEL: "warn" };
    for (const name of ["DATABASE_URL", "REDIS_URL", "KAFKA_BROKERS", "OPENAI_API_KEY"]) env[name] = "";
    gateway = startProcess("standalone", "apps/standalone/dist/main.js", env);
    await waitForHttp(`${url}/readyz`, gateway, 120_000);
    await eventually(async () => {
      try {
        return JSON.parse(readFileSync(join(dataDir, "dev-credentials.json"), "utf8")) as DevCredentials;
      } catch {
        return undefined;
      }
    }, 30_000);
    apiKey = (JSON.parse(readFileSync(join(dataDir, "dev-credentials.json"), "utf8")) as DevCredentials)
      .api_key;
    client = new OpenAI({ apiKey, baseURL: `${url}/v1`, maxRetries: 0 });
  }, 180_000);

  afterAll(async () => {
    await gateway?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const generation = (id: string) =>
    eventually(async () => {
      const lookup = await fetch(`${url}/api/v1/generation?id=${id}`, {
        headers: { authorization: `Bearer ${apiKey}` },
      });
      return lookup.status === 200 ? ((await lookup.json()) as { data: GenerationRecord }).data : undefined;
    });

  describe("openai SDK", () => {
    it("responses.create, plain: a Response with output_text, usage and cost, recorded as responses", async () => {
      const response = await client.responses.create({ model: MODEL, input: "Hello responses" });
      expect(response.object).toBe("response");
      expect(response.status).toBe("completed");
      expect(response.output_text).toContain("demo provider");
      expect(response.usage?.output_tokens).toBeGreaterThan(0);
      expect((response.usage as unknown as { cost: number }).cost).toBeGreaterThan(0);
      const record = await generation(response.id);
      expect(record).toMatchObject({ api_type: "responses", provider: "demo", streamed: false });
    });

    it("responses.create with stream: true: the event sequence ends in response.completed", async () => {
      const stream = await client.responses.create({ model: MODEL, input: "Hello stream", stream: true });
      const types: string[] = [];
      let text = "";
      let completed: OpenAI.Responses.Response | undefined;
      for await (const event of stream) {
        types.push(event.type);
        if (event.type === "response.output_text.delta") text += event.delta;
        if (event.type === "response.completed") completed = event.response;
      }
      expect(types[0]).toBe("response.created");
      expect(types.at(-1)).toBe("response.completed");
      expect(text).toContain("demo provider");
      expect(completed?.usage?.total_tokens).toBeGreaterThan(0);
      expect(await generation(completed?.id ?? "")).toMatchObject({ api_type: "responses", streamed: true });
    });

    it("responses.create with a function tool, then the function_call_output", async () => {
      const tools: OpenAI.Responses.Tool[] = [
        { type: "function", name: "get_weather", parameters: weatherParameters, strict: true },
      ];
      const first = await client.responses.create({
        model: MODEL,
        input: "What is the weather in Paris?",
        tools,
      });
      const call = first.output.find((item) => item.type === "function_call");
      if (call?.type !== "function_call") throw new Error("no function_call in the output");
      expect(call.name).toBe("get_weather");
      expect(JSON.parse(call.arguments)).toHaveProperty("city");
      const second = await client.responses.create({
        model: MODEL,
        tools,
        input: [
          { role: "user", content: "What is the weather in Paris?" },
          call,
          { type: "function_call_output", call_id: call.call_id, output: "sunny" },
        ],
      });
      expect(second.status).toBe("completed");
      expect(second.output_text.length).toBeGreaterThan(0);
    });

    it("responses.create with text.format json_schema: accepted and echoed", async () => {
      const response = await client.responses.create({
        model: MODEL,
        input: "Give me a city as JSON",
        text: { format: { type: "json_schema", name: "city", schema: weatherParameters, strict: true } },
      });
      expect(response.status).toBe("completed");
      expect(response.text?.format).toMatchObject({ type: "json_schema", name: "city" });
    });

    it("completions.create: a text_completion recorded as completions", async () => {
      const completion = await client.completions.create({
        model: MODEL,
        prompt: "Hello legacy",
        max_tokens: 64,
      });
      expect(completion.object).toBe("text_completion");
      expect(completion.choices[0]?.text).toContain("demo provider");
      expect(await generation(completion.id)).toMatchObject({ api_type: "completions", provider: "demo" });
    });
  });

  describe("openai SDK at OpenRouter's base URL (/api/v1)", () => {
    const alias = () => new OpenAI({ apiKey, baseURL: `${url}/api/v1`, maxRetries: 0 });

    it("models.list, chat, responses and completions answer there as under /v1", async () => {
      const models = [];
      for await (const model of alias().models.list()) models.push(model.id);
      expect(models).toContain(MODEL);
      const chat = await alias().chat.completions.create({
        model: MODEL,
        messages: [{ role: "user", content: "Hello alias" }],
      });
      expect(chat.choices[0]?.message.content).toContain("demo provider");
      expect((await alias().responses.create({ model: MODEL, input: "Hello alias" })).output_text).toContain(
        "demo provider",
      );
      const completion = await alias().completions.create({ model: MODEL, prompt: "Hello alias" });
      expect(completion.choices[0]?.text).toContain("demo provider");
    });
  });

  describe("@openrouter/sdk at its default path (/api/v1)", () => {
    const sdk = () => new OpenRouter({ apiKey, serverURL: `${url}/api/v1` });

    it("chat.send, not streamed: its schema (system_fingerprint required) accepts the reply", async () => {
      const result = await sdk().chat.send({
        chatRequest: { model: MODEL, messages: [{ role: "user", content: "Hello OpenRouter" }] },
      });
      if (!("choices" in result)) throw new Error("expected a ChatResult");
      expect(result.choices[0]?.message.content).toContain("demo provider");
      expect(result.systemFingerprint).toBe("fp_gateway_demo");
    });

    it("chat.send, streamed", async () => {
      const stream = await sdk().chat.send({
        chatRequest: { model: MODEL, messages: [{ role: "user", content: "Hello stream" }], stream: true },
      });
      if ("choices" in stream) throw new Error("expected a stream");
      let text = "";
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
      expect(text).toContain("demo provider");
    });

    it("beta.responses.send, not streamed", async () => {
      const result = await sdk().beta.responses.send({
        responsesRequest: { model: MODEL, input: "Hello OpenRouter responses" },
      });
      if (!("output" in result)) throw new Error("expected a response object");
      expect(result.status).toBe("completed");
      expect(JSON.stringify(result.output)).toContain("demo provider");
    });
    it("beta.responses.send, streamed: every event passes its schema", async () => {
      const stream = await sdk().beta.responses.send({
        responsesRequest: { model: MODEL, input: "Hello OpenRouter stream", stream: true },
      });
      if ("output" in stream) throw new Error("expected a stream");
      const types: string[] = [];
      for await (const event of stream) types.push(event.type);
      expect(types[0]).toBe("response.created");
      expect(types).toContain("response.output_text.delta");
      expect(types.at(-1)).toBe("response.completed");
    });
  });

  describe("AI SDK (ai + @ai-sdk/openai, default openai(model) = Responses API)", () => {
    const provider = () => createOpenAI({ apiKey, baseURL: `${url}/v1` });

    it("generateText", async () => {
      const result = await generateText({ model: provider()(MODEL), prompt: "Hello AI SDK" });
      expect(result.text).toContain("demo provider");
      expect(result.finishReason).toBe("stop");
      expect(result.usage.outputTokens).toBeGreaterThan(0);
      const id = result.response.id;
      expect(await generation(id)).toMatchObject({ api_type: "responses" });
    });

    it("streamText", async () => {
      const result = streamText({ model: provider()(MODEL), prompt: "Hello AI SDK stream" });
      let text = "";
      for await (const delta of result.textStream) text += delta;
      expect(text).toContain("demo provider");
      expect((await result.usage).outputTokens).toBeGreaterThan(0);
      expect(await result.finishReason).toBe("stop");
    });

    it("a second turn: with store false the SDK sends the items; with its default it sends item_reference, a clear 400", async () => {
      const first = await generateText({ model: provider()(MODEL), prompt: "Hello first turn" });
      const messages = [
        { role: "user" as const, content: "Hello first turn" },
        ...first.response.messages,
        { role: "user" as const, content: "And a second turn" },
      ];
      const second = await generateText({
        model: provider()(MODEL),
        messages,
        providerOptions: { openai: { store: false } },
      });
      expect(second.text).toContain("demo provider");
      const refused = await generateText({ model: provider()(MODEL), messages, maxRetries: 0 }).catch(
        (caught: unknown) => caught,
      );
      expect(refused).toBeInstanceOf(Error);
      expect((refused as Error).message).toContain("item_reference");
      expect((refused as Error).message).toContain("store = false");
    });

    it("generateText with a tool the SDK executes, over two steps", async () => {
      const result = await generateText({
        model: provider()(MODEL),
        prompt: "What is the weather in Paris?",
        tools: {
          get_weather: tool({
            description: "Current weather",
            inputSchema: jsonSchema<{ city: string }>(weatherParameters),
            execute: async ({ city }) => `sunny in ${city}`,
          }),
        },
        stopWhen: stepCountIs(2),
      });
      expect(result.steps[0]?.toolCalls[0]?.toolName).toBe("get_weather");
      expect(result.steps).toHaveLength(2);
      expect(result.text.length).toBeGreaterThan(0);
    });
  });
});
