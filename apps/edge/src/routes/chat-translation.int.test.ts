import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type EdgeHarness, startEdgeHarness } from "../test/harness.js";
import { testKey } from "../test/principals.js";
import { usageEventFor } from "../test/usage.js";

const key = testKey("acct-translate");
let edge: EdgeHarness;
let client: OpenAI;

beforeAll(async () => {
  edge = await startEdgeHarness({ keys: [key], settings: { keepAliveMs: 100 } });
  client = new OpenAI({ apiKey: key.secret, baseURL: `${edge.url}/v1`, maxRetries: 0 });
});

afterAll(async () => {
  await edge?.stop();
});

beforeEach(() => {
  for (const fake of [edge.anthropic, edge.gemini]) {
    fake.resetScenario();
    fake.clearRequests();
  }
});

const weatherTool = {
  type: "function" as const,
  function: {
    name: "get_weather",
    description: "Current weather",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
};

const families = [
  { name: "Anthropic", model: "anthropic/claude-test", fake: () => edge.anthropic, path: "/v1/messages" },
  { name: "Gemini", model: "google/gemini-test", fake: () => edge.gemini, path: ":generateContent" },
];

describe.each(families)("OpenAI SDK → $name upstream", ({ model, fake, path }) => {
  it("answers a plain completion with the provider's usage and cost", async () => {
    const { data, response } = await client.chat.completions
      .create({
        model,
        messages: [
          { role: "system", content: "Be terse." },
          { role: "user", content: "hello there" },
        ],
      })
      .withResponse();
    expect(data.choices[0]?.message.content).toBe("Echo: hello there");
    expect(data.choices[0]?.finish_reason).toBe("stop");
    expect(data.model).toBe(model);
    expect(data.usage?.prompt_tokens).toBeGreaterThan(0);
    expect(data.usage?.completion_tokens).toBeGreaterThan(0);
    const generationId = response.headers.get("x-generation-id")!;
    const event = await usageEventFor(edge, generationId);
    expect(event.estimated).toBe(false);
    expect(event.apiType).toBe("chat");
    expect(event.promptTokens).toBe(data.usage?.prompt_tokens);
    expect(event.costPico).toBeGreaterThan(0n);
    const sent = fake().requests().at(-1);
    expect(sent?.path).toContain(path);
  });

  it("calls tools and reads tool results back", async () => {
    const first = await client.chat.completions.create({
      model,
      messages: [{ role: "user", content: "What is the weather in Rome?" }],
      tools: [weatherTool],
    });
    const call = first.choices[0]?.message.tool_calls?.[0];
    expect(first.choices[0]?.finish_reason).toBe("tool_calls");
    expect(call?.type === "function" && call.function.name).toBe("get_weather");
    expect(call?.type === "function" && JSON.parse(call.function.arguments)).toEqual({ city: "Rome" });
    const second = await client.chat.completions.create({
      model,
      messages: [
        { role: "user", content: "What is the weather in Rome?" },
        first.choices[0]!.message,
        { role: "tool", tool_call_id: call!.id, content: "21C and sunny" },
      ],
      tools: [weatherTool],
    });
    expect(second.choices[0]?.message.content).toContain("21C and sunny");
  });

  it("streams content, a usage chunk with cost, then [DONE]", async () => {
    const stream = await client.chat.completions.create({
      model,
      messages: [{ role: "user", content: "stream me" }],
      stream: true,
    });
    let text = "";
    let finish: string | null | undefined;
    let usage: OpenAI.CompletionUsage | undefined | null;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? "";
      finish ??= chunk.choices[0]?.finish_reason;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe("Echo: stream me");
    expect(finish).toBe("stop");
    expect(usage?.completion_tokens).toBeGreaterThan(0);
    expect((usage as unknown as { cost: number }).cost).toBeGreaterThan(0);
  });

  it("streams a tool call the SDK can assemble", async () => {
    const stream = client.chat.completions.stream({
      model,
      messages: [{ role: "user", content: "weather in Oslo please" }],
      tools: [weatherTool],
    });
    const completion = await stream.finalChatCompletion();
    const call = completion.choices[0]?.message.tool_calls?.[0];
    expect(completion.choices[0]?.finish_reason).toBe("tool_calls");
    expect(call?.type === "function" && JSON.parse(call.function.arguments)).toEqual({ city: "Oslo" });
  });

  it("refuses what the format cannot carry with a 400 that says what and why", async () => {
    const error = await client.chat.completions
      .create({
        model,
        n: 2,
        messages: [
          // A file in OpenAI's own storage: neither Anthropic nor Gemini can read it (issue 32).
          { role: "user", content: [{ type: "file", file: { file_id: "file-abc" } }] },
        ],
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as Error).message).toMatch(/cannot be sent to this model/);
    expect(fake().requests()).toHaveLength(0);
  });

  it("keeps an upstream 4xx status and maps a 5xx to a 502", async () => {
    const ask = () =>
      client.chat.completions
        .create({ model, messages: [{ role: "user", content: "x" }] })
        .catch((caught: unknown) => caught);
    fake().setScenario({ name: "fail", status: 400, message: "bad thing" });
    const bad = await ask();
    expect(bad).toBeInstanceOf(OpenAI.BadRequestError);
    expect((bad as Error).message).toContain("bad thing");
    fake().setScenario({ name: "fail", status: 500 });
    expect(await ask()).toMatchObject({ status: 502 });
  });
});
