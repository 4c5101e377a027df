import { describe, expect, it } from "vitest";
import { errorShape } from "./error-shape.js";

describe("errorShape", () => {
  it("picks the surface by path, and by anthropic-version on /v1/models", () => {
    const shape = (path: string, headers: Record<string, string> = {}) => errorShape({ path, headers });
    expect(shape("/v1/messages")).toBe("anthropic");
    expect(shape("/v1/messages/batches/x/results")).toBe("anthropic");
    expect(shape("/v1beta/models/gemini:generateContent")).toBe("gemini");
    expect(shape("/v1/models/gemini-2.5-flash:streamGenerateContent")).toBe("gemini");
    expect(shape("/v1/models/gemini-2.5-flash%3AgenerateContent")).toBe("gemini");
    expect(shape("/v1/models", { "anthropic-version": "2023-06-01" })).toBe("anthropic");
    expect(shape("/v1/models")).toBe("openai");
    expect(shape("/v1/chat/completions")).toBe("openai");
  });

  it("picks one for a path that does not decode, without throwing (it renders the malformed-URL refusal)", () => {
    const shape = (path: string) => errorShape({ path, headers: {} });
    expect(shape("/openai/v1/%80")).toBe("openai");
    expect(shape("/v1/models/%ff:generateContent")).toBe("gemini");
    expect(shape("/v1/chat/%e0%80")).toBe("openai");
  });
});
