import { describe, expect, it } from "vitest";
import { type FilterableModel, filterModels, filterOptions, NO_MODEL_FILTER } from "./filter";

const model = (id: string, parameters: string[], input: string[], description = ""): FilterableModel => ({
  id,
  name: id.split("/")[1] ?? id,
  description,
  supported_parameters: parameters,
  architecture: { input_modalities: input, output_modalities: ["text"] },
});

const MODELS = [
  model("openai/gpt-4o", ["tools", "temperature"], ["text", "image"], "Omni model"),
  model("anthropic/claude-sonnet", ["tools", "reasoning"], ["text", "image", "file"]),
  model("meta/llama-3-8b", ["temperature"], ["text"], "Small open model"),
];

const ids = (list: FilterableModel[]) => list.map((m) => m.id);

describe("filterModels", () => {
  it("keeps everything with no filter", () => {
    expect(ids(filterModels(MODELS, NO_MODEL_FILTER))).toHaveLength(3);
  });

  it("matches every search word in id, name or description, ignoring case", () => {
    expect(ids(filterModels(MODELS, { ...NO_MODEL_FILTER, search: "OPEN model" }))).toEqual([
      "openai/gpt-4o",
      "meta/llama-3-8b",
    ]);
    expect(ids(filterModels(MODELS, { ...NO_MODEL_FILTER, search: "claude" }))).toEqual([
      "anthropic/claude-sonnet",
    ]);
  });

  it("filters by supported parameter and by modality together", () => {
    expect(ids(filterModels(MODELS, { search: "", parameter: "tools", modality: "file" }))).toEqual([
      "anthropic/claude-sonnet",
    ]);
    expect(ids(filterModels(MODELS, { ...NO_MODEL_FILTER, parameter: "temperature" }))).toEqual([
      "openai/gpt-4o",
      "meta/llama-3-8b",
    ]);
  });
});

describe("filterOptions", () => {
  it("lists each parameter and modality once, sorted", () => {
    expect(filterOptions(MODELS)).toEqual({
      parameters: ["reasoning", "temperature", "tools"],
      modalities: ["file", "image", "text"],
    });
  });
});
