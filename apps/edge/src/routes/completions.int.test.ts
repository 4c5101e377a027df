import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type EdgeHarness, startEdgeHarness } from "../test/harness.js";
import { testKey } from "../test/principals.js";
import { usageEventFor } from "../test/usage.js";

const key = testKey("acct-completions");
let edge: EdgeHarness;
let client: OpenAI;

beforeAll(async () => {
  edge = await startEdgeHarness({ keys: [key] });
  client = new OpenAI({ apiKey: key.secret, baseURL: `${edge.url}/v1`, maxRetries: 0 });
});

afterAll(async () => {
  await edge?.stop();
});

beforeEach(() => {
  for (const fake of [edge.primary, edge.anthropic]) {
    fake.resetScenario();
    fake.clearRequests();
  }
});

describe("POST /v1/completions (legacy prompt API, served through chat)", () => {
  it("answers a text_completion, metered and recorded as api_type completions", async () => {
    const { data, response } = await client.completions
      .create({
        model: "openai/gpt-4o-mini",
        prompt: "Say hi",
        max_tokens: 20,
        temperature: 0,
        stop: ["\n\n"],
      })
      .withResponse();
    expect(data.object).toBe("text_completion");
    expect(data.choices[0]?.text).toBe("Echo: Say hi");
    expect(data.choices[0]?.finish_reason).toBe("stop");
    expect(data.usage?.total_tokens).toBeGreaterThan(0);
    const event = await usageEventFor(edge, response.headers.get("x-generation-id") ?? "");
    expect(event.apiType).toBe("completions");
    expect(event.costPico).toBeGreaterThan(0n);
    const sent = edge.primary.requests().at(-1)?.body as Record<string, unknown>;
    expect(sent).toMatchObject({
      messages: [{ role: "user", content: "Say hi" }],
      max_tokens: 20,
      stop: ["\n\n"],
    });
  });

  it("streams text_completion chunks ending with usage, for a non-OpenAI provider too", async () => {
    const stream = await client.completions.create({
      model: "anthropic/claude-test",
      prompt: ["Say hi"],
      stream: true,
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.every((chunk) => chunk.object === "text_completion")).toBe(true);
    expect(chunks.map((chunk) => chunk.choices[0]?.text ?? "").join("")).toBe("Echo: Say hi");
    const last = chunks.at(-1);
    expect(last?.choices).toEqual([]);
    expect(last?.usage?.completion_tokens).toBeGreaterThan(0);
    const event = await usageEventFor(edge, last?.id ?? "");
    expect(event.apiType).toBe("completions");
    expect(event.streamed).toBe(true);
    expect(event.provider).toBe("anthropic");
  });

  it("is served under /api/v1 too", async () => {
    const alias = new OpenAI({ apiKey: key.secret, baseURL: `${edge.url}/api/v1`, maxRetries: 0 });
    const data = await alias.completions.create({ model: "openai/gpt-4o-mini", prompt: "hi" });
    expect(data.choices[0]?.text).toBe("Echo: hi");
  });

  it("refuses echo and suffix by name with a 400 before any provider", async () => {
    const error = await client.completions
      .create({ model: "openai/gpt-4o-mini", prompt: "hi", echo: true, suffix: "x" })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as Error).message).toContain("echo, suffix:");
    expect(edge.primary.requests()).toHaveLength(0);
  });
});
