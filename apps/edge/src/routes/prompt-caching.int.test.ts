import { listPrice } from "@gw/catalog";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testEndpoint, testModel } from "../test/catalog.js";
import { type EdgeHarness, startEdgeHarness } from "../test/harness.js";
import { testKey } from "../test/principals.js";
import { usageEventFor } from "../test/usage.js";

// Prompt caching end to end (issue 12): OpenRouter-style `cache_control` on chat content reaches Anthropic
// (its fake reports cache writes and reads at the breakpoints, as the Messages API does), and the
// written and read tokens are priced at the catalogue's cache prices in the answer's usage and the event.

const key = testKey("acct-caching");
let edge: EdgeHarness;
let client: OpenAI;

beforeAll(async () => {
  // Claude Sonnet 4's list prices, cache reads and 5-minute writes included.
  const pricing = listPrice({ prompt: "3", completion: "15", cacheRead: "0.30", cacheWrite: "3.75" });
  const model = testModel("anthropic/claude-cache-test", [
    testEndpoint("anthropic", { upstreamModel: "claude-test", contextLength: 200_000, pricing }),
  ]);
  edge = await startEdgeHarness({ keys: [key], extraModels: [model] });
  client = new OpenAI({ apiKey: key.secret, baseURL: `${edge.url}/v1`, maxRetries: 0 });
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

const rules = "Answer in one short sentence. ".repeat(40);
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
