import { describe, expect, it } from "vitest";
import { type FilterableModel, filterModels, filterOptions, NO_MODEL_FILTER, sortModels } from "./filter";

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

describe("sortModels", () => {
  const sortable = (name: string, prompt: string, completion: string, context: number) => ({
    name,
    context_length: context,
    pricing: { prompt, completion },
  });
  const list = [
    sortable("b", "0.000003", "0.000015", 200_000),
    sortable("a", "0.00000015", "0.0000006", 128_000),
    sortable("c", "-1", "0", 8_000),
  ];
  const names = (models: Array<{ name: string }>) => models.map((m) => m.name);

  it("sorts by price (unpriced last), context and name, leaving the input alone", () => {
    expect(names(sortModels(list, "prompt"))).toEqual(["a", "b", "c"]);
    expect(names(sortModels(list, "completion"))).toEqual(["c", "a", "b"]);
    expect(names(sortModels(list, "context"))).toEqual(["b", "a", "c"]);
    expect(names(sortModels(list, "name"))).toEqual(["a", "b", "c"]);
    expect(names(sortModels(list, ""))).toEqual(["b", "a", "c"]);
    expect(names(list)).toEqual(["b", "a", "c"]);
  });
});
