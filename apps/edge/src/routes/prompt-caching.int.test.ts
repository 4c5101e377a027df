import Anthropic from "@anthropic-ai/sdk";
import { listPrice } from "@gw/catalog";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testEndpoint, testModel } from "../test/catalog.js";
import { type EdgeHarness, startEdgeHarness } from "../test/harness.js";
import { testKey } from "../test/principals.js";
import { usageEventFor } from "../test/usage.js";

// Prompt caching end to end (issue 12): OpenRouter-style `cache_control` on chat content, and Anthropic's own
// on /v1/messages, reaches Anthropic (its strict fake reports cache writes and reads at the breakpoints as the
// Messages API does, caches no prefix under the model's minimum of 1,024 tokens, and refuses a fifth
// breakpoint), and the written and read tokens are priced at the catalogue's cache prices in the answer's
// usage and the event (`cache_discount` as OpenRouter reports it).

const key = testKey("acct-caching");
let edge: EdgeHarness;
let client: OpenAI;
let anthropic: Anthropic;

beforeAll(async () => {
  // Claude Sonnet 4's list prices, cache reads and 5-minute writes included.
  const pricing = listPrice({ prompt: "3", completion: "15", cacheRead: "0.30", cacheWrite: "3.75" });
  const model = testModel("anthropic/claude-cache-test", [
    testEndpoint("anthropic", { upstreamModel: "claude-test", contextLength: 200_000, pricing }),
  ]);
  edge = await startEdgeHarness({ keys: [key], extraModels: [model] });
  client = new OpenAI({ apiKey: key.secret, baseURL: `${edge.url}/v1`, maxRetries: 0 });
  anthropic = new Anthropic({ apiKey: key.secret, baseURL: edge.url, maxRetries: 0 });
  edge.anthropic.setScenario({ name: "cache" });
});

afterAll(async () => {
  await edge?.stop();
});

// Per token, in pico-dollars: 3, 0.30 (read) and 3.75 (5-minute write) USD per million, 15 out.
const PROMPT = 3_000_000n;
const READ = 300_000n;
const WRITE = 3_750_000n;
const COMPLETION = 15_000_000n;

// 4,200 characters = 1,050 tokens by the fake's count: above Anthropic's 1,024-token minimum.
const rules = "Answer in one short sentence. ".repeat(140);
// The OpenAI SDK's types have no `cache_control`; OpenRouter's clients send it on content parts like this.
const request = {
  model: "anthropic/claude-cache-test",
  messages: [
    {
      role: "system",
      content: [{ type: "text", text: rules, cache_control: { type: "ephemeral", ttl: "5m" } }],
    },
    { role: "user", content: "hello" },
  ],
} as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming;

type Details = { cached_tokens: number; cache_write_tokens: number };
type CostDetails = { upstream_inference_cost: number; cache_discount?: number };

describe("prompt caching, chat completions → Anthropic", () => {
  it("sends the breakpoint, then prices the cache write and the cache read", async () => {
    const first = await client.chat.completions.create(request).withResponse();
    const sent = edge.anthropic.requests().at(-1)?.body as { system: unknown };
    expect(sent.system).toEqual([
      { type: "text", text: rules, cache_control: { type: "ephemeral", ttl: "5m" } },
    ]);
    const written = first.data.usage as unknown as {
      prompt_tokens: number;
      completion_tokens: number;
      prompt_tokens_details: Details;
      cost_details: CostDetails;
    };
    const writes = written.prompt_tokens_details.cache_write_tokens;
    expect(writes).toBeGreaterThan(0);
    expect(written.prompt_tokens_details.cached_tokens).toBe(0);
    // A 5-minute write costs 1.25x input: a negative discount, as OpenRouter reports Anthropic's.
    expect(written.cost_details.cache_discount).toBeCloseTo(
      -Number(BigInt(writes) * (WRITE - PROMPT)) / 1e12,
      12,
    );
    const firstEvent = await usageEventFor(edge, first.response.headers.get("x-generation-id")!);
    expect(firstEvent.cacheWriteTokens).toBe(writes);
    const plain = BigInt(written.prompt_tokens - writes);
    expect(firstEvent.upstreamPromptCostPico).toBe(plain * PROMPT + BigInt(writes) * WRITE);

    const second = await client.chat.completions.create(request).withResponse();
    const read = second.data.usage as unknown as typeof written;
    expect(read.prompt_tokens_details.cached_tokens).toBe(writes);
    expect(read.prompt_tokens_details.cache_write_tokens).toBe(0);
    expect(read.cost_details.cache_discount).toBeCloseTo(Number(BigInt(writes) * (PROMPT - READ)) / 1e12, 12);
    const secondEvent = await usageEventFor(edge, second.response.headers.get("x-generation-id")!);
    expect(secondEvent.cachedTokens).toBe(writes);
    expect(secondEvent.upstreamPromptCostPico).toBe(
      BigInt(read.prompt_tokens - writes) * PROMPT + BigInt(writes) * READ,
    );
    expect(secondEvent.upstreamCompletionCostPico).toBe(BigInt(read.completion_tokens) * COMPLETION);
  });
});

describe("prompt caching, Anthropic /v1/messages → Anthropic", () => {
  // Its own rules text, so the prefix differs from the chat test's and starts uncached.
  const system = "Reply in plain words only. ".repeat(160); // 4,320 characters = 1,080 tokens
  const ask = (question: string) =>
    anthropic.messages
      .create({
        model: "anthropic/claude-cache-test",
        max_tokens: 32,
        system: [{ type: "text", text: system, cache_control: { type: "ephemeral" } }],
        messages: [{ role: "user", content: question }],
      })
      .withResponse();

  it("writes, then reads, the cache at the breakpoint, each priced at the catalogue's cache price", async () => {
    const first = await ask("first");
    expect(first.data.usage).toMatchObject({ cache_creation_input_tokens: 1080, cache_read_input_tokens: 0 });
    const plain = BigInt(first.data.usage.input_tokens);
    const firstEvent = await usageEventFor(edge, first.response.headers.get("x-generation-id")!);
    expect(firstEvent.cacheWriteTokens).toBe(1080);
    expect(firstEvent.upstreamPromptCostPico).toBe(plain * PROMPT + 1080n * WRITE);
    // The write costs 1.25x input: a negative discount.
    expect(firstEvent.cacheDiscountPico).toBe(-1080n * (WRITE - PROMPT));

    const second = await ask("second");
    expect(second.data.usage).toMatchObject({
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 1080,
    });
    const secondEvent = await usageEventFor(edge, second.response.headers.get("x-generation-id")!);
    expect(secondEvent.cachedTokens).toBe(1080);
    expect(secondEvent.upstreamPromptCostPico).toBe(
      BigInt(second.data.usage.input_tokens) * PROMPT + 1080n * READ,
    );
    expect(secondEvent.cacheDiscountPico).toBe(1080n * (PROMPT - READ));
  });

  it("caches nothing under the model's minimum length, without an error", async () => {
    const short = await anthropic.messages.create({
      model: "anthropic/claude-cache-test",
      max_tokens: 32,
      system: [{ type: "text", text: "Be brief. ".repeat(40), cache_control: { type: "ephemeral" } }],
      messages: [{ role: "user", content: "hi" }],
    });
    expect(short.usage).toMatchObject({ cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
  });

  it("passes on Anthropic's refusal of a fifth breakpoint, in Anthropic's shape", async () => {
    const marked = (text: string) => ({
      type: "text" as const,
      text,
      cache_control: { type: "ephemeral" as const },
    });
    const error = await anthropic.messages
      .create({
        model: "anthropic/claude-cache-test",
        max_tokens: 32,
        system: [marked("a"), marked("b"), marked("c")],
        messages: [{ role: "user", content: [marked("d"), marked("e")] }],
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as Error).message).toContain(
      "A maximum of 4 blocks with cache_control may be provided. Found 5.",
    );
  });
});
