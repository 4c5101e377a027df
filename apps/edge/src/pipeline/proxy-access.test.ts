import { describe, expect, it } from "vitest";
import { nativeModelName } from "./proxy-access.js";

describe("nativeModelName", () => {
  it("reads the body's model (OpenAI, Anthropic) or Gemini's path segment", () => {
    expect(nativeModelName("openai", "/v1/chat/completions", { model: "gpt-4o" })).toBe("gpt-4o");
    expect(nativeModelName("anthropic", "/v1/messages", { model: 3 })).toBeUndefined();
    expect(nativeModelName("gemini", "/v1beta/models/gemini-2.5-flash:generateContent", {})).toBe(
      "gemini-2.5-flash",
    );
    expect(nativeModelName("gemini", "/v1beta/models/gemini-2.5-flash", {})).toBe("gemini-2.5-flash");
  });
});
