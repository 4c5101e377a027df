import { describe, expect, it } from "vitest";
import { nativeModelId } from "../planning/native-model.js";
import { testEndpoint, testModel, testSnapshot } from "../test/catalog.js";

describe("CatalogSnapshot aliases", () => {
  const snapshot = testSnapshot([
    testModel("anthropic/claude-3-5-haiku", [testEndpoint("anthropic")], {
      aliases: ["anthropic/claude-3-5-haiku-latest"],
    }),
  ]);

  it("finds a model by an alias, and lists it once", () => {
    expect(snapshot.model("anthropic/claude-3-5-haiku-latest")?.id).toBe("anthropic/claude-3-5-haiku");
    expect(snapshot.allModels().map((model) => model.id)).toEqual(["anthropic/claude-3-5-haiku"]);
  });

  it("resolves a native SDK's bare alias (claude-3-5-haiku-latest) through it", () => {
    const id = nativeModelId(snapshot, "claude-3-5-haiku-latest", ["anthropic"]);
    expect(snapshot.model(id)?.id).toBe("anthropic/claude-3-5-haiku");
  });

  it("resolves the bare alias on the Gemini surface too, whose own author is google", () => {
    const id = nativeModelId(snapshot, "models/claude-3-5-haiku-latest", ["google"]);
    expect(snapshot.model(id)?.id).toBe("anthropic/claude-3-5-haiku");
  });
});
