import { describeWith } from "@gw/testing";
import { createOpenRouter } from "@openrouter/ai-sdk-provider";
import { OpenRouter } from "@openrouter/sdk";
import { NotFoundResponseError } from "@openrouter/sdk/models/errors";
import { generateText, jsonSchema, stepCountIs, streamText, tool } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "./processes.js";
import { type SdkGateway, startEmbeddedGateway, startSplitGateway } from "./sdk-gateways.js";

// Issue 13's "Done when": OpenRouter's own clients, `@openrouter/sdk` and `@openrouter/ai-sdk-provider`,
// at their default base URL shape (`…/api/v1`) against the embedded default and the split plane. Every
// answer passes the SDK's own zod schemas (a reply that does not parse rejects); the assertions check
// the content: the demo provider's text, usage numbers, ids that resolve. The `openai` SDK and the AI
// SDK's default provider are driven by responses-sdks.e2e.test.ts.

const MODEL = "demo/echo";
const EMBEDDING_MODEL = "demo/echo-embedding";
const weatherParameters = {
  type: "object",
  properties: { city: { type: "string" } },
  required: ["city"],
  additionalProperties: false,
} as const;

function sdkMatrix(start: () => Promise<SdkGateway>): void {
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
      return ((await lookup.json()) as { data: { model: string; streamed: boolean } }).data;
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
      expect(await generation(result.id)).toMatchObject({ model: MODEL, streamed: false });
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
      const credits = (await management().credits.getCredits()).data;
      expect(credits.totalCredits).toBeGreaterThan(0);
      expect(credits.totalUsage).toBeGreaterThanOrEqual(0);
      expect(credits.totalUsage).toBeLessThan(credits.totalCredits);
    });

    it("apiKeys.getCurrentKeyMetadata: the calling key, with its usage after traffic", async () => {
      const current = (await sdk().apiKeys.getCurrentKeyMetadata()).data;
      expect(current.isManagementKey).toBe(false);
      expect(current.usage).toBeGreaterThanOrEqual(0);
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

describe("OpenRouter's SDKs at /api/v1 (embedded default)", () => {
  sdkMatrix(() => startEmbeddedGateway("gw-or-sdks"));
});

describeWith(["postgres", "redis", "kafka"], "OpenRouter's SDKs at /api/v1 (split plane)", () => {
  sdkMatrix(() => startSplitGateway("orsdks"));
});
