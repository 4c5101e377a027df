import { describe, expect, it } from "vitest";
import { findModel, parseModelId, resolveModel } from "./index.js";

describe("model variants", () => {
  it("splits only the spec suffixes", () => {
    expect(parseModelId("openai/gpt-4o:floor")).toEqual({ baseId: "openai/gpt-4o", variant: "floor" });
    expect(parseModelId("openai/gpt-4o:nitro")).toEqual({ baseId: "openai/gpt-4o", variant: "nitro" });
    expect(parseModelId("x/y:free")).toEqual({ baseId: "x/y", variant: "free" });
    expect(parseModelId("ollama/llama3:8b")).toEqual({ baseId: "ollama/llama3:8b", variant: null });
    expect(parseModelId("openai/gpt-4o")).toEqual({ baseId: "openai/gpt-4o", variant: null });
  });

  it("resolves :floor and :nitro to the base model's endpoints", () => {
    expect(resolveModel("meta-llama/llama-3.3-70b-instruct:nitro")).toMatchObject({
      model: { id: "meta-llama/llama-3.3-70b-instruct" },
      variant: "nitro",
    });
    expect(findModel("openai/gpt-4o-mini:floor")?.id).toBe("openai/gpt-4o-mini");
  });

  it("resolves :free only to a listed free entry", () => {
    expect(resolveModel("meta-llama/llama-3.3-70b-instruct:free")).toMatchObject({
      model: { id: "meta-llama/llama-3.3-70b-instruct:free", isFree: true },
      variant: "free",
    });
    expect(findModel("openai/gpt-4o:free")).toBeUndefined();
    expect(findModel("nobody/nothing")).toBeUndefined();
    expect(findModel("nobody/nothing:floor")).toBeUndefined();
  });
});
