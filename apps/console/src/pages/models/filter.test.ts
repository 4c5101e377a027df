import { describe, expect, it } from "vitest";
import { type FilterableModel, filterModels, filterOptions, NO_MODEL_FILTER, sortModels } from "./filter";

const model = (
  id: string,
  parameters: string[],
  input: string[],
  description = "",
  prompt = "0.0000025",
  context = 128_000,
): FilterableModel => ({
  id,
  name: id.split("/")[1] ?? id,
  description,
  supported_parameters: parameters,
  architecture: { input_modalities: input, output_modalities: ["text"] },
  context_length: context,
  pricing: { prompt },
});

const MODELS = [
  model("openai/gpt-4o", ["tools", "temperature"], ["text", "image"], "Omni model"),
  model(
    "anthropic/claude-sonnet",
    ["tools", "reasoning"],
    ["text", "image", "file"],
    "",
    "0.000003",
    200_000,
  ),
  model("meta/llama-3-8b", ["temperature"], ["text"], "Small open model", "0", 8_192),
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
    expect(ids(filterModels(MODELS, { ...NO_MODEL_FILTER, parameter: "tools", modality: "file" }))).toEqual([
      "anthropic/claude-sonnet",
    ]);
    expect(ids(filterModels(MODELS, { ...NO_MODEL_FILTER, parameter: "temperature" }))).toEqual([
      "openai/gpt-4o",
      "meta/llama-3-8b",
    ]);
  });
});

describe("filterModels by price and context (issue 34)", () => {
  it("keeps models at or under a prompt price per 1M, free ones for 0, never a variable price", () => {
    const variable = model("x/router", [], ["text"], "", "-1");
    const list = [...MODELS, variable];
    expect(ids(filterModels(list, { ...NO_MODEL_FILTER, maxPrompt: "0" }))).toEqual(["meta/llama-3-8b"]);
    expect(ids(filterModels(list, { ...NO_MODEL_FILTER, maxPrompt: "2" }))).toEqual(["meta/llama-3-8b"]);
    expect(ids(filterModels(list, { ...NO_MODEL_FILTER, maxPrompt: "10" }))).toEqual([
      "openai/gpt-4o",
      "anthropic/claude-sonnet",
      "meta/llama-3-8b",
    ]);
    // $0.50 per 1M is 5e-7 per token, whose float product is not exactly 0.5.
    const half = model("y/half", [], ["text"], "", "0.0000005");
    expect(ids(filterModels([half], { ...NO_MODEL_FILTER, maxPrompt: "0.5" }))).toEqual(["y/half"]);
  });

  it("keeps models with at least the chosen context", () => {
    expect(ids(filterModels(MODELS, { ...NO_MODEL_FILTER, minContext: "128000" }))).toEqual([
      "openai/gpt-4o",
      "anthropic/claude-sonnet",
    ]);
    expect(ids(filterModels(MODELS, { ...NO_MODEL_FILTER, minContext: "1000000" }))).toEqual([]);
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
