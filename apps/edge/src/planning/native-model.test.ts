import { describe, expect, it } from "vitest";
import { testEndpoint, testModel, testSnapshot } from "../test/catalog.js";
import { nativeModelId } from "./native-model.js";

const snapshot = testSnapshot([
  testModel("anthropic/claude-sonnet-4", [
    testEndpoint("anthropic", { upstreamModel: "claude-sonnet-4-20250514" }),
  ]),
  testModel("google/gemini-2.5-flash", [testEndpoint("google", { upstreamModel: "gemini-2.5-flash" })]),
  testModel("meta/claude-sonnet-4", [testEndpoint("together", { upstreamModel: "x" })]),
]);

describe("nativeModelId", () => {
  it("resolves short, dated, prefixed and full names, preferring the surface's author", () => {
    const anthropic = (name: string) => nativeModelId(snapshot, name, ["anthropic"]);
    expect(anthropic("claude-sonnet-4")).toBe("anthropic/claude-sonnet-4");
    expect(anthropic("claude-sonnet-4-20250514")).toBe("anthropic/claude-sonnet-4");
    expect(anthropic("anthropic/claude-sonnet-4")).toBe("anthropic/claude-sonnet-4");
    expect(anthropic("claude-sonnet-4:floor")).toBe("anthropic/claude-sonnet-4:floor");
    expect(nativeModelId(snapshot, "models/gemini-2.5-flash", ["google"])).toBe("google/gemini-2.5-flash");
    expect(nativeModelId(snapshot, "gemini-2.5-flash", ["anthropic"])).toBe("google/gemini-2.5-flash");
  });

  it("leaves an unknown name alone for the planner's 404", () => {
    expect(nativeModelId(snapshot, "nope", ["anthropic"])).toBe("nope");
  });
});
