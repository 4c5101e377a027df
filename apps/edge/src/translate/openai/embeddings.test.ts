import { describe, expect, it } from "vitest";
import { embedRequestFromGemini } from "../gemini/embed.js";
import { embedRequestFromOpenAi, float32Base64, parseEmbeddingsRequest } from "./embeddings.js";

describe("embeddings translation", () => {
  it("normalises OpenAI input shapes to a list", () => {
    const input = (value: unknown) =>
      embedRequestFromOpenAi(parseEmbeddingsRequest({ model: "m", input: value })).input;
    expect(input("a")).toEqual(["a"]);
    expect(input(["a", "b"])).toEqual(["a", "b"]);
    expect(input([1, 2, 3])).toEqual([[1, 2, 3]]);
    expect(input([[1], [2, 3]])).toEqual([[1], [2, 3]]);
    expect(() => input([])).toThrow(/input/);
    expect(() => input(["a", 1])).toThrow(/input/);
  });

  it("encodes base64 as little-endian float32 bytes", () => {
    const encoded = float32Base64([1, -0.5]);
    const bytes = Buffer.from(encoded, "base64");
    expect([bytes.readFloatLE(0), bytes.readFloatLE(4)]).toEqual([1, -0.5]);
  });

  it("reads Gemini embedContent and batchEmbedContents", () => {
    expect(
      embedRequestFromGemini(
        {
          content: { parts: [{ text: "a" }, { text: "b" }] },
          taskType: "RETRIEVAL_QUERY",
          outputDimensionality: 8,
        },
        "google/x",
        false,
      ),
    ).toEqual({
      model: "google/x",
      input: ["ab"],
      dimensions: 8,
      taskType: "RETRIEVAL_QUERY",
      title: undefined,
    });
    expect(
      embedRequestFromGemini(
        { requests: [{ content: { parts: [{ text: "a" }] } }, { content: { parts: [{ text: "b" }] } }] },
        "m",
        true,
      ).input,
    ).toEqual(["a", "b"]);
    expect(() =>
      embedRequestFromGemini(
        { content: { parts: [{ inlineData: { mimeType: "image/png", data: "x" } }] } },
        "m",
        false,
      ),
    ).toThrow(/body\.content\.parts\[0\]/);
  });
});
