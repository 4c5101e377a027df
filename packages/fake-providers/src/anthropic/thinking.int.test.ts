import Anthropic from "@anthropic-ai/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeServer } from "../core/server.js";
import { startFakeAnthropic } from "./server.js";
import { thinkingSignature } from "./thinking.js";

const KEY = "sk-ant-fake-test";
let server: FakeServer;
let client: Anthropic;

beforeAll(async () => {
  server = await startFakeAnthropic({ apiKey: KEY });
  client = new Anthropic({ apiKey: KEY, baseURL: server.baseUrl, maxRetries: 0 });
});
afterAll(() => server.close());

const model = "claude-sonnet-4-20250514";
const thinking = { type: "enabled" as const, budget_tokens: 1024 };
const weatherTool = {
  name: "get_weather",
  input_schema: { type: "object" as const, properties: { city: { type: "string" } }, required: ["city"] },
};
const ask = { role: "user" as const, content: "What is the weather in Rome?" };

describe("extended thinking, as strict as the Messages API", () => {
  it("starts the answer with a signed thinking block, streamed as thinking and signature deltas", async () => {
    const message = await client.messages.create({ model, max_tokens: 2000, thinking, messages: [ask] });
    const block = message.content[0];
    if (block?.type !== "thinking") throw new Error(`first block is ${block?.type}`);
    expect(block.signature).toBe(thinkingSignature(block.thinking));
    const stream = client.messages.stream({ model, max_tokens: 2000, thinking, messages: [ask] });
    const final = await stream.finalMessage();
    expect(final.content[0]).toMatchObject({ type: "thinking", signature: block.signature });
  });

  it("refuses a budget under 1,024 tokens and a max_tokens not above the budget", async () => {
    const small = client.messages.create({
      model,
      max_tokens: 2000,
      thinking: { ...thinking, budget_tokens: 100 },
      messages: [ask],
    });
    await expect(small).rejects.toThrow(/budget_tokens: Input should be greater than or equal to 1024/);
    const tight = client.messages.create({ model, max_tokens: 1024, thinking, messages: [ask] });
    await expect(tight).rejects.toThrow(/`max_tokens` must be greater than `thinking.budget_tokens`/);
  });

  it("needs the thinking block back, unaltered, at the start of the tool-use turn", async () => {
    const first = await client.messages.create({
      model,
      max_tokens: 2000,
      thinking,
      tools: [weatherTool],
      messages: [ask],
    });
    const call = first.content.find((block) => block.type === "tool_use");
    if (call?.type !== "tool_use") throw new Error("no tool call");
    const result = {
      role: "user" as const,
      content: [{ type: "tool_result" as const, tool_use_id: call.id, content: "sunny" }],
    };
    const kept = await client.messages.create({
      model,
      max_tokens: 2000,
      thinking,
      tools: [weatherTool],
      messages: [ask, { role: "assistant", content: first.content }, result],
    });
    expect(kept.stop_reason).toBe("end_turn");
    const dropped = client.messages.create({
      model,
      max_tokens: 2000,
      thinking,
      tools: [weatherTool],
      messages: [
        ask,
        { role: "assistant", content: first.content.filter((block) => block.type !== "thinking") },
        result,
      ],
    });
    await expect(dropped).rejects.toThrow(
      /messages\.1\.content\.0\.type: Expected `thinking` or `redacted_thinking`/,
    );
    const forged = client.messages.create({
      model,
      max_tokens: 2000,
      thinking,
      tools: [weatherTool],
      messages: [
        ask,
        {
          role: "assistant",
          content: first.content.map((block) =>
            block.type === "thinking" ? { ...block, signature: "forged" } : block,
          ),
        },
        result,
      ],
    });
    await expect(forged).rejects.toThrow(/Invalid `signature` in `thinking` block/);
  });
});
