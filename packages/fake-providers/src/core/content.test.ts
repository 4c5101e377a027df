import { describe, expect, it } from "vitest";
import { asksForTool, limitReply, replyText, splitEvenly, streamPieces, toolArguments } from "./content.js";
import { estimateTokens, truncateToTokens } from "./tokens.js";

describe("token estimate", () => {
  it("counts one token per four characters, rounded up", () => {
    expect(estimateTokens("")).toBe(0);
    expect(estimateTokens("abcd")).toBe(1);
    expect(estimateTokens("abcde")).toBe(2);
    expect(estimateTokens("héllo")).toBe(2);
    expect(estimateTokens("😀😀😀😀")).toBe(1);
    expect(truncateToTokens("Echo: Hello there", 2)).toBe("Echo: He");
  });
});

describe("replies", () => {
  it("echo the last user text, or say they are the demo", () => {
    expect(replyText(" Hello ", { demo: false })).toBe("Echo: Hello");
    expect(replyText("", { demo: false })).toBe("Echo: (no text)");
    expect(replyText("Hi", { demo: true })).toMatch(/^This is the built-in demo provider of Model Gateway/);
  });

  it("cut at the token limit and say so", () => {
    expect(limitReply("Echo: Hello there", 2)).toEqual({ text: "Echo: He", truncated: true });
    expect(limitReply("Echo: Hi", 10)).toEqual({ text: "Echo: Hi", truncated: false });
    expect(limitReply("Echo: Hi", undefined)).toEqual({ text: "Echo: Hi", truncated: false });
  });

  it("stream in pieces that join back to the text", () => {
    for (const text of ["Echo: Hello there", "  lead and trail  ", "one", ""]) {
      expect(streamPieces(text).join("")).toBe(text);
    }
    expect(streamPieces("Echo: Hello there")).toEqual(["Echo:", " Hello", " there"]);
    expect(splitEvenly('{"city":"Paris"}', 3).join("")).toBe('{"city":"Paris"}');
    expect(splitEvenly('{"city":"Paris"}', 3)).toHaveLength(3);
  });
});

describe("tool calls", () => {
  const schema = {
    type: "object",
    properties: { city: { type: "string" }, days: { type: "integer" }, metric: { type: "boolean" } },
    required: ["city", "days", "metric"],
  };

  it("are asked for by mentioning the weather", () => {
    expect(asksForTool("What's the Weather like?")).toBe(true);
    expect(asksForTool("Hello")).toBe(false);
  });

  it("fill arguments from the schema and the place named in the text", () => {
    expect(toolArguments(schema, "What is the weather in New York today?")).toEqual({
      city: "New York",
      days: 1,
      metric: true,
    });
    expect(toolArguments(schema, "weather please")).toMatchObject({ city: "Paris" });
    expect(toolArguments({ type: "OBJECT", properties: { q: { type: "STRING" } } }, "x")).toEqual({
      q: "example",
    });
    expect(toolArguments(undefined, "x")).toEqual({});
  });
});
