import { describe, expect, it } from "vitest";
import { completionFromGemini, GeminiChunkMapper, responseUsage } from "./to-openai.js";

// A grounded answer as ai.google.dev "Grounding with Google Search" shows it: the segment indices are
// UTF-8 bytes of the text ("é" is two bytes, one JavaScript character).
const text = "Café opened. Spain won.";
const grounding = {
  webSearchQueries: ["who won"],
  groundingChunks: [
    { web: { uri: "https://vertexaisearch.cloud.google.com/grounding-api-redirect/a", title: "a.example" } },
    { web: { uri: "https://vertexaisearch.cloud.google.com/grounding-api-redirect/b", title: "b.example" } },
  ],
  groundingSupports: [
    { segment: { startIndex: 0, endIndex: 13, text: "Café opened." }, groundingChunkIndices: [0] },
    { segment: { startIndex: 14, endIndex: 24, text: "Spain won." }, groundingChunkIndices: [0, 1] },
  ],
};
const usageMetadata = { promptTokenCount: 10, candidatesTokenCount: 5 };

const citation = (url: string, title: string, start: number, end: number) => ({
  type: "url_citation",
  url_citation: { url, title, start_index: start, end_index: end },
});
const expected = [
  citation(grounding.groundingChunks[0]?.web.uri ?? "", "a.example", 0, 12),
  citation(grounding.groundingChunks[0]?.web.uri ?? "", "a.example", 13, 23),
  citation(grounding.groundingChunks[1]?.web.uri ?? "", "b.example", 13, 23),
];

describe("Gemini Google Search grounding on the chat surface", () => {
  it("turns groundingSupports into url_citation annotations at string indices, and counts one search", () => {
    const body = completionFromGemini({
      candidates: [
        { content: { role: "model", parts: [{ text }] }, finishReason: "STOP", groundingMetadata: grounding },
      ],
      usageMetadata,
    });
    const message = body.choices[0]?.message as { content: string; annotations?: unknown[] };
    expect(message.annotations).toEqual(expected);
    expect(text.slice(0, 12)).toBe("Café opened.");
    expect(text.slice(13, 23)).toBe("Spain won.");
    const ungrounded = completionFromGemini({
      candidates: [{ content: { role: "model", parts: [{ text }] }, finishReason: "STOP" }],
      usageMetadata,
    });
    expect(ungrounded.choices[0]?.message).not.toHaveProperty("annotations");
  });

  it("streams them on the chunk that carries the grounding, indexed over the whole answer so far", () => {
    const mapper = new GeminiChunkMapper();
    mapper.map({ candidates: [{ content: { role: "model", parts: [{ text: "Café opened. " }] } }] });
    const [last] = mapper.map({
      candidates: [
        {
          content: { role: "model", parts: [{ text: "Spain won." }] },
          finishReason: "STOP",
          groundingMetadata: grounding,
        },
      ],
      usageMetadata,
    });
    expect(last?.choices?.[0]?.delta?.annotations).toEqual(expected);
    expect(mapper.usage?.webSearches).toBe(1);
    // Each query Gemini reports is a search (Gemini 3 bills them one by one).
    const twice = responseUsage({
      candidates: [
        {
          content: { role: "model", parts: [{ text }] },
          finishReason: "STOP",
          groundingMetadata: { ...grounding, webSearchQueries: ["a", "b"] },
        },
      ],
      usageMetadata,
    });
    expect(twice?.webSearches).toBe(2);
    // Billed as Google counts them: distinct and non-empty.
    const repeated = responseUsage({
      candidates: [
        {
          content: { role: "model", parts: [{ text }] },
          finishReason: "STOP",
          groundingMetadata: { ...grounding, webSearchQueries: ["", "a", "b", "a", " "] },
        },
      ],
      usageMetadata,
    });
    expect(repeated?.webSearches).toBe(2);
  });
});
