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

describe("nativeModelId: several catalogue models behind one native name", () => {
  // Each listed under a different author; "aaa" sorts first, so only the surface's preference moves
  // another ahead of it.
  const shared = testSnapshot([
    testModel("aaa/mirror", [testEndpoint("together", { upstreamModel: "shared-name" })]),
    testModel("google/gemini-x", [testEndpoint("google", { upstreamModel: "shared-name" })]),
    testModel("anthropic/claude-x", [testEndpoint("anthropic", { upstreamModel: "shared-name" })], {
      aliases: ["anthropic/claude-x-latest"],
    }),
    testModel("bbb/claude-x-latest", [testEndpoint("together", { upstreamModel: "y" })]),
  ]);

  it("prefers the surface's authors in their order, then the rest by id", () => {
    expect(nativeModelId(shared, "shared-name", ["anthropic"])).toBe("anthropic/claude-x");
    expect(nativeModelId(shared, "shared-name", ["google", "anthropic"])).toBe("google/gemini-x");
    expect(nativeModelId(shared, "shared-name", ["anthropic", "google"])).toBe("anthropic/claude-x");
    expect(nativeModelId(shared, "shared-name", ["openai"])).toBe("aaa/mirror");
    expect(nativeModelId(shared, "shared-name:nitro", ["google"])).toBe("google/gemini-x:nitro");
  });

  it("resolves another surface's bare alias, the surface's author first", () => {
    // The surface's own author's alias is a catalogue name already (the planner resolves it).
    expect(nativeModelId(shared, "claude-x-latest", ["anthropic"])).toBe("anthropic/claude-x-latest");
    expect(nativeModelId(shared, "claude-x-latest", ["openai", "bbb"])).toBe("bbb/claude-x-latest");
    expect(nativeModelId(shared, "claude-x-latest", ["openai"])).toBe("anthropic/claude-x");
  });
});
