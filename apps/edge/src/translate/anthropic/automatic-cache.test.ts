import { describe, expect, it } from "vitest";
import { markLastCacheable } from "./automatic-cache.js";

const marker = { type: "ephemeral" };
const marked = (text: string) => ({ type: "text", text, cache_control: marker });

describe("markLastCacheable (automatic caching on an Anthropic body)", () => {
  it("marks the last block that can carry a breakpoint, past a trailing thinking block", () => {
    const body = {
      messages: [
        { role: "user", content: "question" },
        {
          role: "assistant",
          content: [
            { type: "text", text: "answer" },
            { type: "thinking", thinking: "…", signature: "s" },
          ],
        },
      ],
    };
    markLastCacheable(body, marker);
    expect(body.messages[1]?.content).toEqual([
      { type: "text", text: "answer", cache_control: marker },
      { type: "thinking", thinking: "…", signature: "s" },
    ]);
  });

  it("turns a string content into one text block to carry it", () => {
    const body: Record<string, unknown> = { messages: [{ role: "user", content: "question" }] };
    markLastCacheable(body, marker);
    expect(body.messages).toEqual([{ role: "user", content: [marked("question")] }]);
  });

  it("adds no fifth breakpoint past Anthropic's four", () => {
    const body = {
      tools: [{ name: "a", input_schema: {}, cache_control: marker }],
      system: [marked("s1"), marked("s2")],
      messages: [{ role: "user", content: [marked("m1"), { type: "text", text: "last" }] }],
    };
    markLastCacheable(body, marker);
    expect(body.messages[0]?.content[1]).toEqual({ type: "text", text: "last" });
  });
});
