import Anthropic from "@anthropic-ai/sdk";
import { describeWith } from "@gw/testing";
import OpenAI from "openai";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type CloudGateway, generationOf, type Plane, startCloudGateway } from "./cloud-gateway.js";

// Issue 31's failover across clouds, driven by the official SDKs at their defaults against the embedded
// gateway: a Claude request whose Anthropic endpoint answers 529 is served by Bedrock, then (Bedrock
// throttling or unavailable too) by Vertex; GPT by Azure when OpenAI answers 429. The fault switches are
// the fakes' own (`/__fake/scenario`), and the generation record lists every attempt in order.
// `provider.order` pins the first choice: the three Claude endpoints cost the same, so without it the
// gateway draws one at random and Anthropic might not be tried first.

const CLAUDE_ORDER = { order: ["anthropic", "amazon-bedrock", "google-vertex"] };
const GPT_ORDER = { order: ["openai", "azure"] };

type ClaudeParams = Anthropic.MessageCreateParamsNonStreaming & { provider: typeof CLAUDE_ORDER };
type ClaudeStreamParams = Anthropic.MessageCreateParamsStreaming & { provider: typeof CLAUDE_ORDER };
type GptParams = OpenAI.ChatCompletionCreateParamsNonStreaming & { provider: typeof GPT_ORDER };
type GptStreamParams = OpenAI.ChatCompletionCreateParamsStreaming & { provider: typeof GPT_ORDER };

const claude = (content: string): ClaudeParams => ({
  model: "anthropic/claude-sonnet-4",
  max_tokens: 64,
  messages: [{ role: "user", content }],
  provider: CLAUDE_ORDER,
});

const gpt = (content: string): GptParams => ({
  model: "openai/gpt-4o",
  messages: [{ role: "user", content }],
  provider: GPT_ORDER,
});

const suite = (plane: Plane) => () => {
  let gateway: CloudGateway;
  let anthropic: Anthropic;
  let openai: OpenAI;

  beforeAll(async () => {
    gateway = await startCloudGateway(plane);
    anthropic = new Anthropic({ apiKey: gateway.apiKey, baseURL: gateway.url, maxRetries: 0 });
    openai = new OpenAI({ apiKey: gateway.apiKey, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
  }, 240_000);

  afterAll(async () => {
    await gateway?.stop();
  });

  afterEach(() => {
    gateway.resetScenarios();
    gateway.clearRequests();
  });

  const overloaded = () => gateway.fakes.anthropic.setScenario({ name: "fail", status: 529 });
  const attemptsOf = async (id: string | null) => {
    const record = await generationOf(gateway, id ?? "");
    return {
      served: record.provider_name,
      attempts: record.attempts.map((attempt) => [attempt.provider, attempt.status]),
    };
  };

  // Issue 31: Bedrock through both official SDKs with no failover involved (`provider.only`).
  const BEDROCK_ONLY = { only: ["amazon-bedrock"] };
  const BEDROCK_INVOKE = "/model/us.anthropic.claude-sonnet-4-20250514-v1%3A0/invoke";

  it("@anthropic-ai/sdk: Claude on Bedrock, streamed and not", async () => {
    const params: Anthropic.MessageCreateParamsNonStreaming & { provider: typeof BEDROCK_ONLY } = {
      model: "anthropic/claude-sonnet-4",
      max_tokens: 64,
      messages: [{ role: "user", content: "Hello Bedrock" }],
      provider: BEDROCK_ONLY,
    };
    const { data, response } = await anthropic.messages.create(params).withResponse();
    expect(data.content[0]?.type).toBe("text");
    expect(data.usage.output_tokens).toBeGreaterThan(0);
    expect(gateway.fakes["amazon-bedrock"].requests(1)[0]?.path).toBe(BEDROCK_INVOKE);
    expect((await attemptsOf(response.headers.get("x-generation-id"))).served).toBe("amazon-bedrock");
    const final = await anthropic.messages.stream(params).finalMessage();
    expect(final.content[0]?.type === "text" && final.content[0].text.length).toBeGreaterThan(0);
    expect(final.usage.output_tokens).toBeGreaterThan(0);
    expect(gateway.fakes["amazon-bedrock"].requests(1)[0]?.path).toBe(
      `${BEDROCK_INVOKE}-with-response-stream`,
    );
    expect(gateway.providersCalled()).toEqual(["amazon-bedrock"]);
  });

  it("openai: Claude on Bedrock through chat completions, streamed and not", async () => {
    const params: OpenAI.ChatCompletionCreateParamsNonStreaming & { provider: typeof BEDROCK_ONLY } = {
      model: "anthropic/claude-sonnet-4",
      messages: [{ role: "user", content: "Hello Bedrock from OpenAI's SDK" }],
      provider: BEDROCK_ONLY,
    };
    const { data, response } = await openai.chat.completions.create(params).withResponse();
    expect(data.choices[0]?.message.content?.length).toBeGreaterThan(0);
    expect(data.usage?.completion_tokens).toBeGreaterThan(0);
    expect(gateway.fakes["amazon-bedrock"].requests(1)[0]?.path).toBe(BEDROCK_INVOKE);
    expect((await attemptsOf(response.headers.get("x-generation-id"))).served).toBe("amazon-bedrock");
    let text = "";
    let usage: OpenAI.CompletionUsage | undefined | null;
    const stream = await openai.chat.completions.create({ ...params, stream: true });
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? "";
      usage = chunk.usage ?? usage;
    }
    expect(text.length).toBeGreaterThan(0);
    expect(usage?.completion_tokens).toBeGreaterThan(0);
    expect(gateway.fakes["amazon-bedrock"].requests(1)[0]?.path).toBe(
      `${BEDROCK_INVOKE}-with-response-stream`,
    );
    expect(gateway.providersCalled()).toEqual(["amazon-bedrock"]);
  });

  it("Claude: Anthropic's 529 is served by Bedrock, unstreamed", async () => {
    overloaded();
    const { data, response } = await anthropic.messages.create(claude("Failover please")).withResponse();
    expect(data.content[0]?.type).toBe("text");
    expect(gateway.fakes["amazon-bedrock"].requests(1)[0]?.path).toBe(
      "/model/us.anthropic.claude-sonnet-4-20250514-v1%3A0/invoke",
    );
    expect(await attemptsOf(response.headers.get("x-generation-id"))).toEqual({
      served: "amazon-bedrock",
      attempts: [
        ["anthropic", 529],
        ["amazon-bedrock", 200],
      ],
    });
  });

  it("Claude: Anthropic's 529 is served by Bedrock, streamed", async () => {
    overloaded();
    const params: ClaudeStreamParams = { ...claude("Stream the failover"), stream: true };
    const { data: stream, response } = await anthropic.messages.create(params).withResponse();
    let text = "";
    for await (const event of stream)
      if (event.type === "content_block_delta" && event.delta.type === "text_delta") text += event.delta.text;
    expect(text.length).toBeGreaterThan(0);
    expect(gateway.fakes["amazon-bedrock"].requests(1)[0]?.path).toBe(
      "/model/us.anthropic.claude-sonnet-4-20250514-v1%3A0/invoke-with-response-stream",
    );
    expect(await attemptsOf(response.headers.get("x-generation-id"))).toEqual({
      served: "amazon-bedrock",
      attempts: [
        ["anthropic", 529],
        ["amazon-bedrock", 200],
      ],
    });
  });

  it("Claude: Anthropic 529 and Bedrock throttling (429): Vertex serves, unstreamed", async () => {
    overloaded();
    gateway.fakes["amazon-bedrock"].setScenario({ name: "fail", status: 429 });
    const { data, response } = await anthropic.messages.create(claude("Third cloud")).withResponse();
    expect(data.content[0]?.type).toBe("text");
    expect(gateway.fakes["google-vertex"].requests(1)[0]?.path).toMatch(
      /\/publishers\/anthropic\/models\/claude-sonnet-4@20250514:rawPredict$/,
    );
    expect(await attemptsOf(response.headers.get("x-generation-id"))).toEqual({
      served: "google-vertex",
      attempts: [
        ["anthropic", 529],
        ["amazon-bedrock", 429],
        ["google-vertex", 200],
      ],
    });
  });

  it("Claude: Anthropic 529 and Bedrock unavailable (503): Vertex serves, streamed", async () => {
    overloaded();
    gateway.fakes["amazon-bedrock"].setScenario({ name: "fail", status: 503 });
    const stream = anthropic.messages.stream(claude("Third cloud, streamed"));
    const final = await stream.finalMessage();
    expect(final.content[0]?.type === "text" && final.content[0].text.length).toBeGreaterThan(0);
    expect(gateway.fakes["google-vertex"].requests(1)[0]?.path).toMatch(/:streamRawPredict$/);
    expect(await attemptsOf(final.id)).toEqual({
      served: "google-vertex",
      attempts: [
        ["anthropic", 529],
        ["amazon-bedrock", 503],
        ["google-vertex", 200],
      ],
    });
  });

  it("GPT: OpenAI's 429 is served by Azure, unstreamed", async () => {
    gateway.fakes.openai.setScenario({ name: "fail", status: 429 });
    const { data, response } = await openai.chat.completions.create(gpt("Failover GPT")).withResponse();
    expect(data.choices[0]?.message.content?.length).toBeGreaterThan(0);
    expect(gateway.fakes.azure.requests(1)[0]?.path).toBe(
      "/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21",
    );
    expect(await attemptsOf(response.headers.get("x-generation-id"))).toEqual({
      served: "azure",
      attempts: [
        ["openai", 429],
        ["azure", 200],
      ],
    });
  });

  it("GPT: OpenAI's 429 is served by Azure, streamed", async () => {
    gateway.fakes.openai.setScenario({ name: "fail", status: 429 });
    const params: GptStreamParams = { ...gpt("Failover GPT, streamed"), stream: true };
    const { data: stream, response } = await openai.chat.completions.create(params).withResponse();
    let text = "";
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? "";
    expect(text.length).toBeGreaterThan(0);
    expect(gateway.providersCalled().sort()).toEqual(["azure", "openai"]);
    expect(await attemptsOf(response.headers.get("x-generation-id"))).toEqual({
      served: "azure",
      attempts: [
        ["openai", 429],
        ["azure", 200],
      ],
    });
  });
};

describe("failover across clouds through the official SDKs (embedded)", suite("embedded"));
describeWith(
  ["postgres", "redis", "kafka"],
  "failover across clouds through the official SDKs (split plane)",
  suite("split"),
);
