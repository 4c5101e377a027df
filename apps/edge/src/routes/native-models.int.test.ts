import Anthropic from "@anthropic-ai/sdk";
import { GoogleGenAI } from "@google/genai";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EdgeHarness, startEdgeHarness } from "../test/harness.js";
import { testKey } from "../test/principals.js";

const key = testKey("acct-native-models");
const narrow = testKey("acct-native-models", { allowedModels: { values: ["anthropic/claude-test"] } });
let edge: EdgeHarness;

beforeAll(async () => {
  edge = await startEdgeHarness({ keys: [key, narrow] });
});

afterAll(async () => {
  await edge?.stop();
});

async function openAiIds(): Promise<string[]> {
  const client = new OpenAI({ apiKey: key.secret, baseURL: `${edge.url}/v1`, maxRetries: 0 });
  const ids: string[] = [];
  for await (const model of client.models.list()) ids.push(model.id);
  return ids;
}

describe("model lists in each SDK's shape", () => {
  it("answers the Anthropic SDK (anthropic-version) in Anthropic's shape, paginated", async () => {
    const client = new Anthropic({ apiKey: key.secret, baseURL: edge.url, maxRetries: 0 });
    const ids: string[] = [];
    for await (const model of client.models.list({ limit: 3 })) {
      expect(model.type).toBe("model");
      expect(Date.parse(model.created_at)).toBeGreaterThan(0);
      ids.push(model.id);
    }
    expect(ids).toEqual(await openAiIds());
    const first = await client.models.list({ limit: 2 });
    expect(first.has_more).toBe(true);
    expect(first.last_id).toBe(ids[1]);
    const retrieved = await client.models.retrieve("claude-test");
    expect(retrieved).toMatchObject({
      type: "model",
      id: "anthropic/claude-test",
      display_name: "anthropic/claude-test",
    });
    await expect(client.models.retrieve("no-such-model")).rejects.toBeInstanceOf(Anthropic.NotFoundError);
  });

  it("answers @google/genai in Gemini's shape, on /v1beta and on /v1 with x-goog-api-key", async () => {
    for (const apiVersion of ["v1beta", "v1"]) {
      const client = new GoogleGenAI({ apiKey: key.secret, httpOptions: { baseUrl: edge.url, apiVersion } });
      const names: string[] = [];
      const pager = await client.models.list({ config: { pageSize: 4 } });
      for await (const model of pager) names.push(model.name ?? "");
      expect(names).toEqual((await openAiIds()).map((id) => `models/${id}`));
      const model = await client.models.get({ model: "gemini-test" });
      expect(model).toMatchObject({
        name: "models/google/gemini-test",
        supportedActions: expect.arrayContaining(["generateContent"]),
      });
    }
  });

  it("keeps the key's allow-list in every shape", async () => {
    const anthropic = new Anthropic({ apiKey: narrow.secret, baseURL: edge.url, maxRetries: 0 });
    const page = await anthropic.models.list();
    expect(page.data.map((model) => model.id)).toEqual(["anthropic/claude-test"]);
    const response = await fetch(`${edge.url}/v1beta/models`, {
      headers: { "x-goog-api-key": narrow.secret },
    });
    expect(
      ((await response.json()) as { models: { name: string }[] }).models.map((model) => model.name),
    ).toEqual(["models/anthropic/claude-test"]);
    const hidden = await fetch(`${edge.url}/v1beta/models/gemini-test`, {
      headers: { "x-goog-api-key": narrow.secret },
    });
    expect(hidden.status).toBe(404);
    expect(await hidden.json()).toMatchObject({ error: { code: 404, status: "NOT_FOUND" } });
  });
});
