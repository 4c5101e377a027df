import { GatewayError } from "@gw/errors";
import { describe, expect, it } from "vitest";
import { ZERO_COST } from "../../canonical/cost.js";
import { SSE_DONE } from "../sse.js";
import { chatRequestFromCompletions, parseCompletionsRequest } from "./request.js";
import { renderTextCompletion, TextCompletionStream } from "./response.js";

const identity = { generationId: "gen-1", model: "openai/gpt-4o-mini", provider: "openai", created: 100 };
const usage = {
  usage: { promptTokens: 4, completionTokens: 2, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
  cost: ZERO_COST,
  chargedPico: 0n,
  estimated: false,
  isByok: false,
};

function refusal(body: unknown): GatewayError {
  try {
    parseCompletionsRequest(body);
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

const frame = (text: string) => JSON.parse(text.slice("data: ".length, -2)) as Record<string, unknown>;

describe("legacy completions request → canonical chat request", () => {
  it("makes the prompt (a string or an array of one) the one user message, with the sampling fields", () => {
    const chat = chatRequestFromCompletions(
      parseCompletionsRequest({
        model: "m",
        prompt: ["Say hi"],
        max_tokens: 7,
        temperature: 0.2,
        stop: ["\n"],
        stream: true,
      }),
    );
    expect(chat).toEqual({
      model: "m",
      messages: [{ role: "user", content: "Say hi" }],
      max_tokens: 7,
      temperature: 0.2,
      stop: ["\n"],
      stream: true,
    });
  });

  it("refuses fields chat cannot honour by name, but takes their off values", () => {
    const echo = refusal({ model: "m", prompt: "x", echo: true, suffix: "end" });
    expect(echo.status).toBe(400);
    expect(echo.code).toBe("untranslatable_request");
    expect(echo.message).toMatch(/^echo, suffix: /);
    expect(parseCompletionsRequest({ model: "m", prompt: "x", echo: false, logprobs: null }).prompt).toBe(
      "x",
    );
    expect(refusal({ model: "m", prompt: ["a", "b"] }).message).toMatch(/^prompt/);
    expect(refusal({ model: "m" }).message).toMatch(/^prompt: /);
  });
});

describe("text_completion rendering", () => {
  it("renders a chat completion as a text_completion with usage", () => {
    const body = renderTextCompletion(
      { id: "up", choices: [{ index: 0, message: { content: "Hi!" }, finish_reason: "stop" }] },
      identity,
      usage,
    );
    expect(body).toMatchObject({
      id: "gen-1",
      object: "text_completion",
      created: 100,
      model: "openai/gpt-4o-mini",
      provider: "openai",
      system_fingerprint: null,
      choices: [{ text: "Hi!", index: 0, logprobs: null, finish_reason: "stop" }],
      usage: { prompt_tokens: 4, completion_tokens: 2, total_tokens: 6 },
    });
  });

  it("streams text chunks, then a usage chunk and [DONE]", () => {
    const stream = new TextCompletionStream(identity);
    expect(stream.chunk({ id: "up", choices: [{ index: 0, delta: { role: "assistant" } }] })).toBe("");
    const first = frame(stream.chunk({ choices: [{ index: 0, delta: { content: "Hi" } }] }));
    expect(first).toMatchObject({
      id: "gen-1",
      object: "text_completion",
      choices: [{ text: "Hi", index: 0, logprobs: null, finish_reason: null }],
    });
    const last = frame(stream.chunk({ choices: [{ index: 0, delta: {}, finish_reason: "length" }] }));
    expect(last.choices).toEqual([{ text: "", index: 0, logprobs: null, finish_reason: "length" }]);
    const closing = stream.end(usage);
    expect(closing.endsWith(SSE_DONE)).toBe(true);
    expect(frame(closing.slice(0, -SSE_DONE.length))).toMatchObject({
      choices: [],
      usage: { total_tokens: 6 },
    });
    expect(stream.finishReason()).toBe("length");
    expect(stream.upstreamId()).toBe("up");
    expect(stream.outputTexts()).toEqual(["Hi"]);
  });
});
