import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type EdgeHarness, startEdgeHarness } from "../test/harness.js";
import { testKey } from "../test/principals.js";
import { usageEventFor } from "../test/usage.js";

// Streaming behaviour of the native surfaces: usage is never a silent zero, a client that leaves
// stops the upstream and is still metered, slow upstreams get keep-alives, late errors end in-band.

const key = testKey("acct-native-stream");
let edge: EdgeHarness;

beforeAll(async () => {
  edge = await startEdgeHarness({ keys: [key], settings: { keepAliveMs: 100 } });
});

afterAll(async () => {
  await edge?.stop();
});

beforeEach(() => {
  for (const fake of [edge.primary, edge.anthropic, edge.gemini]) {
    fake.resetScenario();
    fake.clearRequests();
  }
});

const messages = (body: Record<string, unknown>) =>
  fetch(`${edge.url}/v1/messages`, {
    method: "POST",
    headers: {
      "x-api-key": key.secret,
      "anthropic-version": "2023-06-01",
      "content-type": "application/json",
    },
    body: JSON.stringify({
      max_tokens: 200,
      stream: true,
      messages: [{ role: "user", content: "tell me more" }],
      ...body,
    }),
  });

const gemini = (model: string, query: string) =>
  fetch(`${edge.url}/v1beta/models/${model}:streamGenerateContent${query}`, {
    method: "POST",
    headers: { "x-goog-api-key": key.secret, "content-type": "application/json" },
    body: JSON.stringify({ contents: [{ role: "user", parts: [{ text: "tell me more" }] }] }),
  });

function dataOf(text: string): Record<string, unknown>[] {
  return text
    .split("\n\n")
    .flatMap((frame) => frame.split("\n").filter((line) => line.startsWith("data: ")))
    .map((line) => JSON.parse(line.slice(6)));
}

describe("native streams", () => {
  it("counts tokens itself, flagged estimated, when the upstream sends no usage", async () => {
    edge.anthropic.setScenario({ name: "no-usage" });
    const response = await messages({ model: "claude-test" });
    const events = dataOf(await response.text());
    const delta = events.find((event) => event.type === "message_delta") as {
      usage: { output_tokens: number; estimated: boolean };
    };
    expect(delta.usage.output_tokens).toBeGreaterThan(0);
    expect(delta.usage.estimated).toBe(true);
    const event = await usageEventFor(edge, response.headers.get("x-generation-id")!);
    expect(event).toMatchObject({ estimated: true, apiType: "messages" });
    expect(event.promptTokens).toBeGreaterThan(0);

    edge.gemini.setScenario({ name: "no-usage" });
    const frames = dataOf(await (await gemini("gemini-test", "?alt=sse")).text());
    expect(
      (frames.at(-1) as { usageMetadata: { estimated: boolean; totalTokenCount: number } }).usageMetadata,
    ).toMatchObject({
      estimated: true,
      totalTokenCount: expect.any(Number),
    });
  });

  it("stops the upstream when the client leaves and still meters what was read", async () => {
    edge.anthropic.setScenario({ name: "slow-stream", ms: 200 });
    const controller = new AbortController();
    const response = await fetch(`${edge.url}/v1/messages`, {
      method: "POST",
      signal: controller.signal,
      headers: { "x-api-key": key.secret, "content-type": "application/json" },
      body: JSON.stringify({
        model: "claude-test",
        max_tokens: 200,
        stream: true,
        messages: [{ role: "user", content: "a long answer please" }],
      }),
    });
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    const event = await usageEventFor(edge, response.headers.get("x-generation-id")!);
    expect(event).toMatchObject({ cancelled: true, streamed: true, apiType: "messages" });
    expect(event.promptTokens).toBeGreaterThan(0);
  });

  it("sends keep-alives while the upstream is slow, in a form each parser ignores", async () => {
    edge.anthropic.setScenario({ name: "slow", ms: 350 });
    const sse = await (await messages({ model: "claude-test" })).text();
    expect(sse).toContain(": keep-alive");
    expect(dataOf(sse).at(-1)).toEqual({ type: "message_stop" });
    edge.gemini.setScenario({ name: "slow", ms: 350 });
    const array = await (await gemini("gemini-test", "")).text();
    expect(array.startsWith("\n")).toBe(true);
    expect(Array.isArray(JSON.parse(array))).toBe(true);
  });

  it("ends a Gemini stream that breaks after the first byte with an error frame", async () => {
    edge.gemini.setScenario({ name: "drop-mid-stream", after: 1 });
    const frames = dataOf(await (await gemini("gemini-test", "?alt=sse")).text());
    expect(frames.at(-1)).toMatchObject({ error: { code: 500, status: "INTERNAL" } });
    edge.primary.setScenario({ name: "drop-mid-stream", after: 2 });
    const array = JSON.parse(await (await gemini("openai/gpt-4o-mini", "")).text()) as Record<
      string,
      unknown
    >[];
    expect(array.at(-1)).toMatchObject({ error: { status: "INTERNAL" } });
  });
});
