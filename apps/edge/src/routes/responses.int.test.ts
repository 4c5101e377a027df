import OpenAI from "openai";
import type { ResponseStreamEvent } from "openai/resources/responses/responses";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type EdgeHarness, startEdgeHarness } from "../test/harness.js";
import { testKey } from "../test/principals.js";
import { usageEventFor } from "../test/usage.js";

const key = testKey("acct-responses");
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
  for (const fake of [edge.primary, edge.backup, edge.anthropic, edge.gemini]) {
    fake.resetScenario();
    fake.clearRequests();
  }
});

const weatherTool = {
  type: "function" as const,
  name: "get_weather",
  description: "Current weather",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  strict: false,
};

const families = [
  {
    name: "OpenAI-compatible",
    model: "openai/gpt-4o-mini",
    fake: () => edge.primary,
    path: "/chat/completions",
  },
  { name: "Anthropic", model: "anthropic/claude-test", fake: () => edge.anthropic, path: "/v1/messages" },
  { name: "Gemini", model: "google/gemini-test", fake: () => edge.gemini, path: ":generateContent" },
];

describe.each(families)("client.responses.create → $name upstream", ({ model, fake, path }) => {
  it("answers a plain request with a Response object, metered as api_type responses", async () => {
    const { data, response } = await client.responses
      .create({ model, input: "hello there", instructions: "Be terse.", store: false })
      .withResponse();
    expect(data.object).toBe("response");
    expect(data.status).toBe("completed");
    expect(data.model).toBe(model);
    expect(data.output_text).toBe("Echo: hello there");
    expect(data.output[0]).toMatchObject({ type: "message", role: "assistant" });
    expect(data.usage?.input_tokens).toBeGreaterThan(0);
    expect(data.usage?.output_tokens).toBeGreaterThan(0);
    expect(data.usage?.total_tokens).toBe((data.usage?.input_tokens ?? 0) + (data.usage?.output_tokens ?? 0));
    const generationId = response.headers.get("x-generation-id") ?? "";
    expect(data.id).toBe(generationId);
    const event = await usageEventFor(edge, generationId);
    expect(event.apiType).toBe("responses");
    expect(event.streamed).toBe(false);
    expect(event.promptTokens).toBe(data.usage?.input_tokens);
    expect(event.costPico).toBeGreaterThan(0n);
    expect((data.usage as unknown as { cost: number }).cost).toBeGreaterThan(0);
    expect(fake().requests().at(-1)?.path).toContain(path);
  });

  it("streams the documented events, ending in response.completed with usage", async () => {
    const stream = await client.responses.create({ model, input: "hello there", stream: true });
    const events: ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    const types = events.map((event) => event.type);
    expect(types.slice(0, 4)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.content_part.added",
    ]);
    expect(types).toContain("response.output_text.delta");
    expect(types.slice(-4)).toEqual([
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.completed",
    ]);
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index));
    const text = events.flatMap((event) =>
      event.type === "response.output_text.delta" ? [event.delta] : [],
    );
    expect(text.join("")).toBe("Echo: hello there");
    const completed = events.at(-1);
    if (completed?.type !== "response.completed") throw new Error("no response.completed");
    expect(completed.response.usage?.output_tokens).toBeGreaterThan(0);
    const event = await usageEventFor(edge, completed.response.id);
    expect(event.apiType).toBe("responses");
    expect(event.streamed).toBe(true);
    expect(event.completionTokens).toBe(completed.response.usage?.output_tokens);
  });

  it("feeds the SDK's responses.stream helper, whose snapshot applies every event, to a consistent final response", async () => {
    const text = await client.responses.stream({ model, input: "hello there" }).finalResponse();
    expect(text.output_text).toBe("Echo: hello there");
    const tools = await client.responses
      .stream({ model, input: "What is the weather in Rome?", tools: [weatherTool] })
      .finalResponse();
    const call = tools.output.find((item) => item.type === "function_call");
    expect(call?.type === "function_call" && JSON.parse(call.arguments)).toEqual({ city: "Rome" });
  });

  it("calls function tools and reads function_call_output back", async () => {
    const first = await client.responses.create({
      model,
      input: "What is the weather in Rome?",
      tools: [weatherTool],
    });
    const call = first.output.find((item) => item.type === "function_call");
    if (call?.type !== "function_call") throw new Error("no function_call item");
    expect(call.name).toBe("get_weather");
    expect(JSON.parse(call.arguments)).toEqual({ city: "Rome" });
    const second = await client.responses.create({
      model,
      tools: [weatherTool],
      input: [
        { role: "user", content: "What is the weather in Rome?" },
        { type: "function_call", call_id: call.call_id, name: call.name, arguments: call.arguments },
        { type: "function_call_output", call_id: call.call_id, output: "sunny, 24C" },
      ],
    });
    expect(second.status).toBe("completed");
    expect(second.output_text.length).toBeGreaterThan(0);
  });
});

describe("POST /v1/responses: the gateway's rules", () => {
  it("is also served under /api/v1 (OpenRouter's base URL)", async () => {
    const alias = new OpenAI({ apiKey: key.secret, baseURL: `${edge.url}/api/v1`, maxRetries: 0 });
    const data = await alias.responses.create({ model: "openai/gpt-4o-mini", input: "hi" });
    expect(data.output_text).toBe("Echo: hi");
  });

  it("sends text.format json_schema upstream as the canonical response_format", async () => {
    const schema = { type: "object", properties: { answer: { type: "string" } }, required: ["answer"] };
    const data = await client.responses.create({
      model: "openai/gpt-4o-mini",
      input: "answer in JSON",
      text: { format: { type: "json_schema", name: "answer", schema, strict: true } },
    });
    expect(data.status).toBe("completed");
    expect(data.text?.format).toMatchObject({ type: "json_schema", name: "answer" });
    const sent = edge.primary.requests().at(-1)?.body as Record<string, unknown>;
    expect(sent.response_format).toEqual({
      type: "json_schema",
      json_schema: { name: "answer", schema, strict: true },
    });
  });

  it("sends reasoning.effort to each provider in its own form, and not to an endpoint without reasoning", async () => {
    // gpt-4o-mini does not list `reasoning` in supported_parameters (OpenAI answers 400 to reasoning_effort
    // there): the parameter is dropped for it, as OpenRouter does.
    await client.responses.create({ model: "openai/gpt-4o-mini", input: "hi", reasoning: { effort: "low" } });
    expect(edge.primary.requests().at(-1)?.body).not.toHaveProperty("reasoning_effort");
    await client.responses.create({
      model: "anthropic/claude-test",
      input: "hi",
      reasoning: { effort: "medium", summary: "auto" },
      max_output_tokens: 8000,
    });
    // The budget stays below the cap the caller set (max_output_tokens counts reasoning, as max_tokens does).
    expect(edge.anthropic.requests().at(-1)?.body).toMatchObject({
      max_tokens: 8000,
      thinking: { type: "enabled", budget_tokens: 4096 },
    });
  });

  it("sends text.format json_schema to Anthropic as structured output and to Gemini as a response schema", async () => {
    const schema = { type: "object", properties: { answer: { type: "string" } }, required: ["answer"] };
    const text = { format: { type: "json_schema" as const, name: "answer", schema } };
    await client.responses.create({ model: "anthropic/claude-test", input: "answer in JSON", text });
    expect(edge.anthropic.requests().at(-1)?.body).toMatchObject({
      output_config: { format: { type: "json_schema", schema } },
    });
    await client.responses.create({ model: "google/gemini-test", input: "answer in JSON", text });
    expect(edge.gemini.requests().at(-1)?.body).toMatchObject({
      generationConfig: { responseMimeType: "application/json" },
    });
  });

  it.each([false, true])(
    "keeps Anthropic's thinking across a tool-use turn: the reasoning item goes back in the input (streamed: %s)",
    async (streamed) => {
      const model = "anthropic/claude-test";
      const ask = "What is the weather in Rome?";
      const common = {
        model,
        tools: [weatherTool],
        reasoning: { effort: "low" as const, summary: "auto" as const },
      };
      const first = streamed
        ? await client.responses.stream({ ...common, input: ask }).finalResponse()
        : await client.responses.create({ ...common, input: ask });
      const reasoning = first.output.find((item) => item.type === "reasoning");
      expect(reasoning?.type === "reasoning" && reasoning.summary[0]?.text).toContain("Thinking about");
      expect(reasoning?.type === "reasoning" && reasoning.encrypted_content).toMatch(/^gw-rd1\./);
      const call = first.output.find((item) => item.type === "function_call");
      if (call?.type !== "function_call") throw new Error("no function_call item");
      // The items a client sends back: reasoning, the assistant's message and its function calls.
      const replayable = (
        items: typeof first.output,
        withReasoning: boolean,
      ): OpenAI.Responses.ResponseInputItem[] =>
        items.flatMap((item) =>
          (item.type === "reasoning" && withReasoning) ||
          item.type === "message" ||
          item.type === "function_call"
            ? [item]
            : [],
        );
      const followUp = (items: OpenAI.Responses.ResponseInputItem[]) =>
        client.responses.create({
          ...common,
          input: [
            { role: "user", content: ask },
            ...items,
            { type: "function_call_output", call_id: call.call_id, output: "sunny, 24C" },
          ],
        });
      const second = await followUp(replayable(first.output, true));
      expect(second.status).toBe("completed");
      const sent = edge.anthropic.requests().at(-1)?.body as {
        messages: Array<{ content: Array<{ type: string }> }>;
      };
      expect(sent.messages[1]?.content[0]?.type).toBe("thinking");
      // Without it, Anthropic refuses the turn (the fake is as strict as the API).
      const refused = await followUp(replayable(first.output, false)).catch((caught: unknown) => caught);
      expect(refused).toBeInstanceOf(OpenAI.APIError);
      expect((refused as InstanceType<typeof OpenAI.APIError>).message).toContain("thinking");
    },
  );

  it("fails over to the next provider before the first byte, as chat does", async () => {
    edge.primary.setScenario({ name: "fail", status: 503 });
    const { data, response } = await client.responses
      .create({ model: "test/failover", input: "hello" })
      .withResponse();
    expect(data.status).toBe("completed");
    expect((data as unknown as { provider: string }).provider).toBe("groq");
    const event = await usageEventFor(edge, response.headers.get("x-generation-id") ?? "");
    expect(event.apiType).toBe("responses");
    expect(event.attempts.map((attempt) => attempt.provider)).toEqual(["openai", "groq"]);
  });

  it("ends a stream the upstream drops with response.failed, and meters what was sent", async () => {
    edge.primary.setScenario({ name: "drop-mid-stream", after: 2 });
    const stream = await client.responses.create({
      model: "openai/gpt-4o-mini",
      input: "hello there",
      stream: true,
    });
    const events: ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    const last = events.at(-1);
    if (last?.type !== "response.failed") throw new Error(`ended with ${last?.type}`);
    expect(last.response.status).toBe("failed");
    expect(last.response.error?.message.length).toBeGreaterThan(0);
    expect(events.map((event) => event.type)).not.toContain("response.completed");
    const event = await usageEventFor(edge, last.response.id);
    expect(event).toMatchObject({ apiType: "responses", finishReason: "error", streamed: true });
  });

  it("refuses store: true and previous_response_id with a 400 naming the field, before any provider", async () => {
    for (const [field, value] of [
      ["store", true],
      ["previous_response_id", "resp_1"],
    ] as const) {
      const error = await client.responses
        .create({ model: "openai/gpt-4o-mini", input: "hi", [field]: value })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      expect((error as InstanceType<typeof OpenAI.BadRequestError>).message).toContain(`${field}:`);
    }
    expect(edge.primary.requests()).toHaveLength(0);
  });

  it("refuses an unknown field by name with untranslatable_request", async () => {
    const response = await fetch(`${edge.url}/v1/responses`, {
      method: "POST",
      headers: { authorization: `Bearer ${key.secret}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "openai/gpt-4o-mini", input: "hi", background: true }),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { message: string; code: unknown } };
    expect(body.error.message).toMatch(/^background: /);
    expect(JSON.stringify(body.error)).toContain("untranslatable_request");
  });

  it("asks for a key before it reads the body (401 before 400)", async () => {
    const response = await fetch(`${edge.url}/v1/responses`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(response.status).toBe(401);
  });
});
