import { createOpenAI } from "@ai-sdk/openai";
import { describeWith } from "@gw/testing";
import { createOpenRouter } from "@openrouter/ai-sdk-provider";
import { HTTPClient, OpenRouter } from "@openrouter/sdk";
import { NotFoundResponseError } from "@openrouter/sdk/models/errors";
import { generateText, jsonSchema, stepCountIs, streamText, tool } from "ai";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "./processes.js";
import { type SdkGateway, startEmbeddedGateway, startSplitGateway } from "./sdk-gateways.js";

// Issue 13's "Done when": OpenRouter's own clients, `@openrouter/sdk` and `@openrouter/ai-sdk-provider`,
// at their default base URL shape (`…/api/v1`) against the embedded default and the split plane. Every
// answer passes the SDK's own zod schemas (a reply that does not parse rejects); the assertions check
// the content: the demo provider's text, usage numbers, ids that resolve. The `openai` SDK and the AI
// SDK's default provider are driven against the embedded default by responses-sdks.e2e.test.ts; the
// split plane's block below drives them there too (`openaiMatrix`), at their default `/v1` shape.

interface GenerationRecord {
  model: string;
  streamed: boolean;
  api_type: string;
}

const MODEL = "demo/echo";
const EMBEDDING_MODEL = "demo/echo-embedding";
const weatherParameters = {
  type: "object",
  properties: { city: { type: "string" } },
  required: ["city"],
  additionalProperties: false,
} as const;

function sdkMatrix(start: () => Promise<SdkGateway>, alsoOpenAi = false): void {
  let gateway: SdkGateway;
  const sdk = (key = gateway.apiKey) => new OpenRouter({ apiKey: key, serverURL: `${gateway.url}/api/v1` });
  const management = () => sdk(gateway.managementKey);

  beforeAll(async () => {
    gateway = await start();
  }, 240_000);

  afterAll(async () => {
    await gateway?.stop();
  });

  /** The generation record behind an id the SDK returned (the record is written after the reply). */
  const generation = (id: string) =>
    eventually(async () => {
      const lookup = await fetch(`${gateway.url}/api/v1/generation?id=${id}`, {
        headers: { authorization: `Bearer ${gateway.apiKey}` },
      });
      if (lookup.status !== 200) return undefined;
      return ((await lookup.json()) as { data: GenerationRecord }).data;
    }, 30_000);

  describe("@openrouter/sdk", () => {
    it("chat.send, not streamed: the demo text, usage and an id that resolves to its generation", async () => {
      const result = await sdk().chat.send({
        chatRequest: { model: MODEL, messages: [{ role: "user", content: "Hello matrix" }] },
      });
      if (!("choices" in result)) throw new Error("expected a ChatResult");
      expect(result.choices[0]?.message.content).toContain("demo provider");
      expect(result.usage?.completionTokens).toBeGreaterThan(0);
      expect(result.usage?.totalTokens).toBe(
        (result.usage?.promptTokens ?? 0) + (result.usage?.completionTokens ?? 0),
      );
      expect(await generation(result.id)).toMatchObject({ model: MODEL, streamed: false, api_type: "chat" });
    });

    it("chat.send, streamed: the chunks carry the text and one id that resolves", async () => {
      const stream = await sdk().chat.send({
        chatRequest: { model: MODEL, messages: [{ role: "user", content: "Hello stream" }], stream: true },
      });
      if ("choices" in stream) throw new Error("expected a stream");
      let text = "";
      const ids = new Set<string>();
      for await (const chunk of stream) {
        ids.add(chunk.id);
        text += chunk.choices[0]?.delta.content ?? "";
      }
      expect(text).toContain("demo provider");
      expect(ids.size).toBe(1);
      expect(await generation([...ids][0] ?? "")).toMatchObject({ model: MODEL, streamed: true });
    });

    it("generations.getGeneration: every field of OpenRouter's schema parses, beside the spec's usage object", async () => {
      const sent = await sdk().chat.send({
        chatRequest: { model: MODEL, messages: [{ role: "user", content: "Hello record" }], user: "user-42" },
      });
      if (!("choices" in sent)) throw new Error("expected a ChatResult");
      await generation(sent.id);
      // The one field where the spec wins (docs/openrouter-compatibility.md): its `usage` is an object,
      // OpenRouter's a number (the cost). Only that field is bridged; the SDK's zod schema parses the rest.
      const bridged = new HTTPClient({
        fetcher: async (input, init) => {
          const response = await fetch(input, init);
          const body = (await response.json()) as { data: { usage: { cost: number } } };
          const data = { ...body.data, usage: body.data.usage.cost };
          return new Response(JSON.stringify({ data }), {
            status: response.status,
            headers: response.headers,
          });
        },
      });
      const client = new OpenRouter({
        apiKey: gateway.apiKey,
        serverURL: `${gateway.url}/api/v1`,
        httpClient: bridged,
      });
      const { data } = await client.generations.getGeneration({ id: sent.id });
      const key = await fetch(`${gateway.url}/api/v1/key`, {
        headers: { authorization: `Bearer ${gateway.apiKey}` },
      });
      const account = ((await key.json()) as { data: { workspace_id: string } }).data.workspace_id;
      expect(data).toMatchObject({
        id: sent.id,
        model: MODEL,
        dataRegion: "global",
        externalUser: "user-42",
        workspaceId: account,
        isByok: false,
        moderationLatency: null,
        presetId: null,
        router: null,
      });
      // The SDK's own User-Agent, as it sent it.
      expect(data.userAgent).toMatch(/openrouter|speakeasy/i);
      expect(data.providerResponses).toEqual([
        expect.objectContaining({ providerName: "demo", modelPermaslug: MODEL, status: 200, isByok: false }),
      ]);
    });

    it("embeddings.generate: one vector per input, with usage", async () => {
      const result = await sdk().embeddings.generate({
        requestBody: { model: EMBEDDING_MODEL, input: ["first text", "second text"] },
      });
      if (typeof result === "string") throw new Error("expected an embeddings body");
      expect(result.data).toHaveLength(2);
      result.data.forEach((row, index) => {
        expect(row.index).toBe(index);
        if (!Array.isArray(row.embedding)) throw new Error("expected a float vector");
        expect(row.embedding.length).toBeGreaterThan(0);
        expect(row.embedding.every((value) => typeof value === "number")).toBe(true);
      });
      expect(result.usage?.promptTokens).toBeGreaterThan(0);
    });

    it("models.list and models.listForUser: OpenRouter's model object, total_count, the demo model", async () => {
      const all = (await sdk().models.list()).result;
      const ids = all.data.map((model) => model.id);
      expect(ids).toContain(MODEL);
      expect(all.totalCount).toBe(all.data.length);
      const demo = all.data.find((model) => model.id === MODEL);
      expect(typeof demo?.pricing.prompt).toBe("string");
      const mine = (await sdk().models.listForUser({ bearer: gateway.apiKey })).result;
      expect(mine.data.map((model) => model.id)).toContain(MODEL);
    });

    it("apiKeys create, list, get, update, delete with the management key", async () => {
      const created = await management().apiKeys.create({ requestBody: { name: "matrix key", limit: 2 } });
      expect(created.key).toMatch(/^lr_live_[0-9a-f]{48}$/);
      const hash = created.data.hash;
      expect(created.data).toMatchObject({ name: "matrix key", limit: 2, disabled: false });
      const listed = await management().apiKeys.list();
      expect(listed.data.map((key) => key.hash)).toContain(hash);
      expect((await management().apiKeys.get({ hash })).data.name).toBe("matrix key");
      const updated = await management().apiKeys.update({
        hash,
        requestBody: { name: "renamed", disabled: true },
      });
      expect(updated.data).toMatchObject({ name: "renamed", disabled: true });
      expect(await management().apiKeys.delete({ hash })).toEqual({ deleted: true });
      await expect(management().apiKeys.get({ hash })).rejects.toBeInstanceOf(NotFoundResponseError);
    });

    it("credits.getCredits: the account's purchased credits and usage as numbers", async () => {
      // The priced demo traffic above is charged (asynchronously, through the usage events): the
      // account's usage becomes positive, and stays below what it bought.
      await expect
        .poll(async () => (await management().credits.getCredits()).data.totalUsage, { timeout: 30_000 })
        .toBeGreaterThan(0);
      const credits = (await management().credits.getCredits()).data;
      expect(credits.totalCredits).toBeGreaterThan(0);
      expect(credits.totalUsage).toBeLessThan(credits.totalCredits);
    });

    it("apiKeys.getCurrentKeyMetadata: the calling key, with its usage after traffic", async () => {
      // This key made the priced demo calls above: its own usage is positive (charged asynchronously)
      // and no more than the account's.
      await expect
        .poll(async () => (await sdk().apiKeys.getCurrentKeyMetadata()).data.usage, { timeout: 30_000 })
        .toBeGreaterThan(0);
      const current = (await sdk().apiKeys.getCurrentKeyMetadata()).data;
      expect(current.isManagementKey).toBe(false);
      expect(current.usage).toBeLessThanOrEqual((await management().credits.getCredits()).data.totalUsage);
      expect(current.label.length).toBeGreaterThan(0);
    });

    it("analytics.getUserActivity: the traffic above shows up per day and model (bounded poll)", async () => {
      const item = await eventually(async () => {
        const activity = await management().analytics.getUserActivity();
        return activity.data.find((row) => row.model === MODEL && row.requests >= 2);
      }, 60_000);
      expect(item.completionTokens).toBeGreaterThan(0);
      expect(item.promptTokens).toBeGreaterThan(0);
      expect(item.usage).toBeGreaterThan(0);
      expect(item.date).toMatch(/^\d{4}-\d{2}-\d{2}/);
    });
  });

  if (alsoOpenAi) openaiMatrix(() => gateway, generation);

  describe("@openrouter/ai-sdk-provider", () => {
    const openrouter = () => createOpenRouter({ apiKey: gateway.apiKey, baseURL: `${gateway.url}/api/v1` });

    it("generateText: the demo text, usage and finish reason", async () => {
      const result = await generateText({ model: openrouter()(MODEL), prompt: "Hello provider" });
      expect(result.text).toContain("demo provider");
      expect(result.finishReason).toBe("stop");
      expect(result.usage.outputTokens).toBeGreaterThan(0);
      expect(await generation(result.response.id)).toMatchObject({ model: MODEL });
    });

    it("streamText: the streamed text, usage and finish reason", async () => {
      const result = streamText({ model: openrouter()(MODEL), prompt: "Hello provider stream" });
      let text = "";
      for await (const delta of result.textStream) text += delta;
      expect(text).toContain("demo provider");
      expect((await result.usage).outputTokens).toBeGreaterThan(0);
      expect(await result.finishReason).toBe("stop");
    });

    it("generateText with a tool the SDK executes, over two steps", async () => {
      const result = await generateText({
        model: openrouter()(MODEL),
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
}

type GenerationLookup = (id: string) => Promise<GenerationRecord>;

/** `openai`'s Responses API and the AI SDK's default `openai(model)` (Responses API too), at `/v1`. */
function openaiMatrix(current: () => SdkGateway, generation: GenerationLookup): void {
  const client = () =>
    new OpenAI({ apiKey: current().apiKey, baseURL: `${current().url}/v1`, maxRetries: 0 });
  const tools: OpenAI.Responses.Tool[] = [
    { type: "function", name: "get_weather", parameters: weatherParameters, strict: true },
  ];

  describe("openai SDK, Responses API", () => {
    it("responses.create, plain: output_text, usage with cost, an id that resolves", async () => {
      const response = await client().responses.create({ model: MODEL, input: "Hello responses" });
      expect(response.status).toBe("completed");
      expect(response.output_text).toContain("demo provider");
      expect(response.usage?.output_tokens).toBeGreaterThan(0);
      expect((response.usage as unknown as { cost: number }).cost).toBeGreaterThan(0);
      expect(await generation(response.id)).toMatchObject({
        model: MODEL,
        streamed: false,
        api_type: "responses",
      });
    });

    it("responses.create, streamed: response.created … output_text.delta … response.completed", async () => {
      const stream = await client().responses.create({ model: MODEL, input: "Hello stream", stream: true });
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
      expect(await generation(completed?.id ?? "")).toMatchObject({ streamed: true });
    });

    it("responses.create with a function tool, then its function_call_output", async () => {
      const first = await client().responses.create({ model: MODEL, input: "Weather in Paris?", tools });
      const call = first.output.find((item) => item.type === "function_call");
      if (call?.type !== "function_call") throw new Error("no function_call in the output");
      expect(call.name).toBe("get_weather");
      expect(JSON.parse(call.arguments)).toHaveProperty("city");
      const second = await client().responses.create({
        model: MODEL,
        tools,
        input: [
          { role: "user", content: "Weather in Paris?" },
          call,
          { type: "function_call_output", call_id: call.call_id, output: "sunny" },
        ],
      });
      expect(second.status).toBe("completed");
      expect(second.output_text.length).toBeGreaterThan(0);
    });

    it("responses.create with text.format json_schema: accepted and echoed on the response", async () => {
      const response = await client().responses.create({
        model: MODEL,
        input: "A city as JSON",
        text: { format: { type: "json_schema", name: "city", schema: weatherParameters, strict: true } },
      });
      expect(response.status).toBe("completed");
      expect(response.text?.format).toMatchObject({ type: "json_schema", name: "city" });
    });
  });

  describe("AI SDK default provider (openai(model) = Responses API)", () => {
    const provider = () => createOpenAI({ apiKey: current().apiKey, baseURL: `${current().url}/v1` });

    it("generateText and streamText", async () => {
      const result = await generateText({ model: provider()(MODEL), prompt: "Hello AI SDK" });
      expect(result.text).toContain("demo provider");
      expect(result.usage.outputTokens).toBeGreaterThan(0);
      expect(await generation(result.response.id ?? "")).toMatchObject({ model: MODEL });
      const streamed = streamText({ model: provider()(MODEL), prompt: "Hello AI SDK stream" });
      let text = "";
      for await (const delta of streamed.textStream) text += delta;
      expect(text).toContain("demo provider");
      expect(await streamed.finishReason).toBe("stop");
    });
  });
}

describe("OpenRouter's SDKs at /api/v1 (embedded default)", () => {
  sdkMatrix(() => startEmbeddedGateway("gw-or-sdks"));
});

describeWith(["postgres", "redis", "kafka"], "OpenRouter's SDKs at /api/v1 (split plane)", () => {
  sdkMatrix(() => startSplitGateway("orsdks"), true);
});
