import { GatewayError } from "@gw/errors";
import { describe, expect, it } from "vitest";
import { ZERO_COST } from "../../canonical/cost.js";
import type { UsageRender } from "../openai/usage.js";
import {
  GeminiStreamRenderer,
  renderGenerateContent,
  usageMetadata as usageMetadataOf,
} from "./generate-response.js";

const identity = { generationId: "gen-1", model: "anthropic/claude", provider: "anthropic", created: 1 };
const usage: UsageRender = {
  usage: { promptTokens: 10, completionTokens: 8, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 3 },
  cost: ZERO_COST,
  chargedPico: 0n,
  estimated: true,
  isByok: false,
};
const usageMetadata = {
  promptTokenCount: 10,
  candidatesTokenCount: 5,
  thoughtsTokenCount: 3,
  totalTokenCount: 18,
  cost: 0,
  estimated: true,
};

describe("renderGenerateContent (OpenAI → Gemini golden)", () => {
  it("renders text, function calls with signatures, finish reason and usage", () => {
    expect(
      renderGenerateContent(
        {
          choices: [
            {
              index: 0,
              finish_reason: "tool_calls",
              message: {
                content: "Checking.",
                tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: '{"a":1}' } }],
                reasoning_details: [
                  { type: "reasoning.encrypted", id: "c1", data: "sig", format: "google-gemini-v1" },
                ],
              },
            },
            { index: 1, finish_reason: "length", message: { content: "cut" } },
          ],
        },
        identity,
        usage,
      ),
    ).toEqual({
      candidates: [
        {
          content: {
            role: "model",
            parts: [
              { text: "Checking." },
              { functionCall: { id: "c1", name: "f", args: { a: 1 } }, thoughtSignature: "sig" },
            ],
          },
          finishReason: "STOP",
          index: 0,
        },
        { content: { role: "model", parts: [{ text: "cut" }] }, finishReason: "MAX_TOKENS", index: 1 },
      ],
      usageMetadata,
      modelVersion: "anthropic/claude",
      responseId: "gen-1",
    });
  });
});

describe("GeminiStreamRenderer (OpenAI chunks → Gemini frames golden)", () => {
  const feed = (renderer: GeminiStreamRenderer) =>
    renderer.chunk({ choices: [{ index: 0, delta: { role: "assistant", content: "Hi" } }] }) +
    renderer.chunk({
      choices: [
        {
          index: 0,
          delta: { tool_calls: [{ index: 0, id: "c1", function: { name: "f", arguments: '{"a"' } }] },
        },
      ],
    }) +
    renderer.chunk({
      choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: ":1}" } }] } }],
    }) +
    renderer.chunk({ choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] }) +
    renderer.end(usage);
  const frames = [
    {
      candidates: [{ content: { role: "model", parts: [{ text: "Hi" }] }, index: 0 }],
      modelVersion: "anthropic/claude",
      responseId: "gen-1",
    },
    {
      candidates: [
        {
          content: { role: "model", parts: [{ functionCall: { id: "c1", name: "f", args: { a: 1 } } }] },
          finishReason: "STOP",
          index: 0,
        },
      ],
      usageMetadata,
      modelVersion: "anthropic/claude",
      responseId: "gen-1",
    },
  ];

  it("sends text at once, whole function calls with the last frame, as SSE data lines", () => {
    const out = feed(new GeminiStreamRenderer(identity, false));
    expect(
      out
        .split("\n\n")
        .filter(Boolean)
        .map((frame) => JSON.parse(frame.slice(6))),
    ).toEqual(frames);
    expect(out).not.toContain("event:");
    expect(out).not.toContain("[DONE]");
  });

  it("writes the same frames as one JSON array without alt=sse", () => {
    expect(JSON.parse(feed(new GeminiStreamRenderer(identity, true)))).toEqual(frames);
  });

  it("ends with a Gemini error frame", () => {
    const renderer = new GeminiStreamRenderer(identity, true);
    const out =
      renderer.chunk({ choices: [{ index: 0, delta: { content: "x" } }] }) +
      renderer.error(new GatewayError("upstream", "boom", { upstreamCode: "protocol" }));
    expect(JSON.parse(out).at(-1)).toMatchObject({
      error: { code: 500, message: "boom", status: "INTERNAL" },
    });
    expect(renderer.end(usage)).toBe("");
  });
});

describe("Gemini usage with media", () => {
  it("gives promptTokensDetails by modality where media were reported, none otherwise", () => {
    const withMedia: UsageRender = {
      ...usage,
      usage: { ...usage.usage, promptTokens: 600, audioTokens: 320, imageTokens: 258 },
    };
    expect(usageMetadataOf(withMedia).promptTokensDetails).toEqual([
      { modality: "TEXT", tokenCount: 22 },
      { modality: "IMAGE", tokenCount: 258 },
      { modality: "AUDIO", tokenCount: 320 },
    ]);
    expect(usageMetadataOf(usage)).not.toHaveProperty("promptTokensDetails");
  });
});
