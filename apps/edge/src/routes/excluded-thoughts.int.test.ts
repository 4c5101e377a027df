import { GoogleGenAI } from "@google/genai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type EdgeHarness, startEdgeHarness } from "../test/harness.js";
import { testKey } from "../test/principals.js";

// Issue 12, thinking to an Anthropic target when the caller does not want the thoughts back: OpenRouter's
// `reasoning.exclude: true` on chat completions, and the Gemini surface without `includeThoughts: true`.
// The thinking runs (the strict fake gets `thinking` and answers with a signed thinking block, counted
// in the output tokens) but no thought text reaches the caller, streamed or not; asked for, it does.

const key = testKey("acct-excluded-thoughts");
let edge: EdgeHarness;

beforeAll(async () => {
  edge = await startEdgeHarness({ keys: [key] });
});

afterAll(async () => {
  await edge?.stop();
});

beforeEach(() => {
  edge.anthropic.resetScenario();
  edge.anthropic.clearRequests();
});

type Json = Record<string, unknown>;

async function post(path: string, body: unknown, headers: Record<string, string>) {
  const response = await fetch(`${edge.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

/** The JSON of each `data:` line of an SSE body, `[DONE]` left out. */
const events = (text: string): Json[] =>
  text
    .split("\n")
    .filter((line) => line.startsWith("data: ") && line !== "data: [DONE]")
    .map((line) => JSON.parse(line.slice(6)) as Json);

const sentThinking = () => (edge.anthropic.requests().at(-1)?.body as Json | undefined)?.thinking;
const chat = (body: Json) => post("/v1/chat/completions", body, { authorization: `Bearer ${key.secret}` });
const base = {
  model: "anthropic/claude-test",
  max_tokens: 4000,
  messages: [{ role: "user", content: "why is the sky blue" }],
};

describe("chat completions → Anthropic, reasoning.exclude", () => {
  it("thinks, meters the thinking, and returns no thought text (non-streamed)", async () => {
    const shown = await chat({ ...base, reasoning: { max_tokens: 2048 } });
    const hidden = await chat({ ...base, reasoning: { max_tokens: 2048, exclude: true } });
    expect(sentThinking()).toEqual({ type: "enabled", budget_tokens: 2048 });
    const [withThoughts, without] = [shown, hidden].map((answer) => JSON.parse(answer.text) as Json);
    const message = (body: Json | undefined) => (((body?.choices ?? []) as Json[])[0]?.message ?? {}) as Json;
    expect(message(withThoughts).reasoning).toMatch(/^Thinking about/);
    expect(message(withThoughts).reasoning_details).toHaveLength(1);
    expect(hidden.status).toBe(200);
    expect(message(without)).not.toHaveProperty("reasoning");
    expect(message(without)).not.toHaveProperty("reasoning_details");
    expect(hidden.text).not.toContain("Thinking about");
    expect(message(without).content).toBe(message(withThoughts).content);
    // The thinking is still billed: the same output tokens either way.
    const usage = (body: Json | undefined) => ((body?.usage ?? {}) as Json).completion_tokens;
    expect(usage(without)).toBe(usage(withThoughts));
  });

  it("streams no thought text either", async () => {
    const shown = await chat({ ...base, stream: true, reasoning: { max_tokens: 2048 } });
    expect(events(shown.text).some((chunk) => JSON.stringify(chunk).includes('"reasoning"'))).toBe(true);
    const hidden = await chat({ ...base, stream: true, reasoning: { max_tokens: 2048, exclude: true } });
    expect(sentThinking()).toEqual({ type: "enabled", budget_tokens: 2048 });
    expect(hidden.status).toBe(200);
    expect(hidden.text).not.toMatch(/"reasoning"|"reasoning_details"|Thinking about/);
    const text = events(hidden.text)
      .map((chunk) => ((chunk.choices as Json[] | undefined)?.[0]?.delta as Json | undefined)?.content ?? "")
      .join("");
    expect(text.length).toBeGreaterThan(0);
  });
});

describe("Gemini surface → Anthropic, thinkingConfig.includeThoughts", () => {
  const gemini = (includeThoughts: boolean | undefined, stream: boolean) =>
    post(
      `/v1beta/models/anthropic/claude-test:${stream ? "streamGenerateContent?alt=sse" : "generateContent"}`,
      {
        contents: [{ role: "user", parts: [{ text: "why is the sky blue" }] }],
        generationConfig: {
          maxOutputTokens: 4000,
          thinkingConfig: {
            thinkingBudget: 2048,
            ...(includeThoughts === undefined ? {} : { includeThoughts }),
          },
        },
      },
      { "x-goog-api-key": key.secret },
    );
  const thoughtParts = (bodies: Json[]) =>
    bodies.flatMap((body) =>
      ((body.candidates as Json[] | undefined) ?? []).flatMap((candidate) =>
        (((candidate.content as Json | undefined)?.parts as Json[] | undefined) ?? []).filter(
          (part) => part.thought === true,
        ),
      ),
    );

  for (const stream of [false, true])
    it(`returns thought parts only with includeThoughts: true (${stream ? "streamed" : "non-streamed"})`, async () => {
      for (const includeThoughts of [true, false, undefined]) {
        const answer = await gemini(includeThoughts, stream);
        expect(answer.status).toBe(200);
        expect(sentThinking()).toEqual({ type: "enabled", budget_tokens: 2048 });
        const bodies = stream ? events(answer.text) : [JSON.parse(answer.text) as Json];
        const thoughts = thoughtParts(bodies);
        if (includeThoughts === true) {
          expect(thoughts.length).toBeGreaterThan(0);
          expect(thoughts.map((part) => part.text).join("")).toMatch(/^Thinking about/);
        } else {
          expect(thoughts).toEqual([]);
          expect(answer.text).not.toContain("Thinking about");
        }
      }
    });
});

describe("@google/genai at its default settings, Gemini surface → Anthropic", () => {
  it("gets thought parts with includeThoughts: true and none without, streamed and not", async () => {
    const client = new GoogleGenAI({ apiKey: key.secret, httpOptions: { baseUrl: edge.url } });
    const ask = (includeThoughts: boolean) => ({
      model: "anthropic/claude-test",
      contents: "why is the sky blue",
      config: { maxOutputTokens: 4000, thinkingConfig: { thinkingBudget: 2048, includeThoughts } },
    });
    for (const includeThoughts of [true, false]) {
      const answer = await client.models.generateContent(ask(includeThoughts));
      const parts = answer.candidates?.[0]?.content?.parts ?? [];
      const streamed = [];
      for await (const chunk of await client.models.generateContentStream(ask(includeThoughts)))
        streamed.push(...(chunk.candidates?.[0]?.content?.parts ?? []));
      for (const received of [parts, streamed]) {
        const thoughts = received.filter((part) => part.thought === true);
        expect(received.some((part) => part.thought !== true && part.text)).toBe(true);
        if (includeThoughts) expect(thoughts.map((part) => part.text).join("")).toMatch(/^Thinking about/);
        else expect(thoughts).toEqual([]);
      }
      expect(sentThinking()).toEqual({ type: "enabled", budget_tokens: 2048 });
    }
  });
});
