import { describe, expect, it } from "vitest";
import { bundledCatalog, type CatalogContent } from "../content.js";
import { parseImport } from "./index.js";

// Entries as LiteLLM's file of 2026-07-24 has them (the shared reference's full file), trimmed to the
// fields the importer reads.
const ENTRIES = {
  "cerebras/llama-3.3-70b": {
    litellm_provider: "cerebras",
    mode: "chat",
    input_cost_per_token: 8.5e-7,
    output_cost_per_token: 0.0000012,
    max_input_tokens: 128000,
    max_output_tokens: 128000,
    supports_function_calling: true,
  },
  "deepinfra/Qwen/Qwen3-32B": {
    litellm_provider: "deepinfra",
    mode: "chat",
    input_cost_per_token: 1e-7,
    output_cost_per_token: 2.8e-7,
    max_input_tokens: 40960,
    max_output_tokens: 40960,
    supports_function_calling: true,
  },
  "anthropic.claude-sonnet-4-20250514-v1:0": claudeSonnet4("bedrock_converse"),
  "us.anthropic.claude-sonnet-4-20250514-v1:0": claudeSonnet4("bedrock_converse"),
  "bedrock/us-east-1/meta.llama3-70b-instruct-v1:0": {
    litellm_provider: "bedrock",
    mode: "chat",
    input_cost_per_token: 0.00000265,
    output_cost_per_token: 0.0000035,
    max_input_tokens: 8192,
    max_output_tokens: 8192,
  },
  "vertex_ai/claude-sonnet-4@20250514": claudeSonnet4("vertex_ai-anthropic_models"),
  "vertex_ai/claude-sonnet-4": claudeSonnet4("vertex_ai-anthropic_models"),
  "azure/gpt-4o": gpt4o("0.0000025", "0.00001", "0.00000125"),
  "azure/gpt-4o-2024-11-20": gpt4o("0.00000275", "0.000011", "0.00000125"),
  "azure/eu/gpt-4o-2024-08-06": gpt4o("0.00000275", "0.000011", "0.000001375"),
};

function claudeSonnet4(provider: string) {
  return {
    litellm_provider: provider,
    mode: "chat",
    input_cost_per_token: 0.000003,
    output_cost_per_token: 0.000015,
    cache_read_input_token_cost: 3e-7,
    cache_creation_input_token_cost: 0.00000375,
    max_input_tokens: 1000000,
    max_output_tokens: 64000,
    supports_function_calling: true,
    supports_reasoning: true,
    supports_response_schema: true,
    supports_web_search: true,
  };
}

function gpt4o(prompt: string, completion: string, cacheRead: string) {
  return {
    litellm_provider: "azure",
    mode: "chat",
    input_cost_per_token: Number(prompt),
    output_cost_per_token: Number(completion),
    cache_read_input_token_cost: Number(cacheRead),
    max_input_tokens: 128000,
    max_output_tokens: 16384,
    supports_function_calling: true,
    supports_parallel_function_calling: true,
    supports_response_schema: true,
  };
}

const CLOUDS = ["amazon-bedrock", "google-vertex", "azure"];

/**
 * The bundled catalogue without the clouds' endpoints (so the import adds them, parameters included), with
 * or without the three cloud providers themselves (an operator's catalogue may lack them).
 */
function catalogue(clouds: boolean): CatalogContent {
  const current = bundledCatalog();
  const models = current.models.map((model) => ({
    ...model,
    endpoints: model.endpoints.filter((endpoint) => !CLOUDS.includes(endpoint.providerId)),
  }));
  const providers = clouds ? current.providers : current.providers.filter((p) => !CLOUDS.includes(p.id));
  return { ...current, models, providers };
}

const parse = (current: CatalogContent, skipUnknownProviders = false) =>
  parseImport(JSON.stringify(ENTRIES), { format: "litellm", current, skipUnknownProviders });

const endpointOf = (result: ReturnType<typeof parse>, id: string, provider: string) =>
  result.models.find((m) => m.id === id && m.endpoints[0]?.providerId === provider)?.endpoints[0];

describe("LiteLLM import: open-weight hosts and clouds", () => {
  it("maps DeepInfra and Cerebras onto the catalogue's models, with the file's limits and prices", () => {
    const result = parse(catalogue(true));
    expect(result.problems).toEqual([]);
    expect(endpointOf(result, "meta-llama/llama-3.3-70b-instruct", "cerebras")).toMatchObject({
      upstreamModel: "llama-3.3-70b",
      contextLength: 128_000,
      maxCompletionTokens: 128_000,
      pricing: { promptPico: 850_000n, completionPico: 1_200_000n },
    });
    expect(endpointOf(result, "qwen/qwen3-32b", "deepinfra")).toMatchObject({
      upstreamModel: "Qwen/Qwen3-32B",
      contextLength: 40_960,
      pricing: { promptPico: 100_000n, completionPico: 280_000n },
    });
  });

  it("reports entries of cloud providers the catalogue lacks by name, or skips them on request", () => {
    const refused = parse(catalogue(false));
    expect(refused.problems).toEqual([
      "anthropic.claude-sonnet-4-20250514-v1:0: unknown provider: amazon-bedrock",
      "us.anthropic.claude-sonnet-4-20250514-v1:0: unknown provider: amazon-bedrock",
      "bedrock/us-east-1/meta.llama3-70b-instruct-v1:0: unknown provider: amazon-bedrock",
      "vertex_ai/claude-sonnet-4@20250514: unknown provider: google-vertex",
      "vertex_ai/claude-sonnet-4: unknown provider: google-vertex",
      "azure/gpt-4o: unknown provider: azure",
      "azure/gpt-4o-2024-11-20: unknown provider: azure",
      "azure/eu/gpt-4o-2024-08-06: unknown provider: azure",
    ]);
    const skipping = parse(catalogue(false), true);
    expect(skipping.problems).toEqual([]);
    expect(skipping.skipped).toHaveLength(8);
    expect(skipping.models.map((m) => m.endpoints[0]?.providerId).sort()).toEqual(["cerebras", "deepinfra"]);
  });

  it("maps Bedrock's and Vertex's names of Claude onto the catalogue's model, cache prices included", () => {
    const result = parse(catalogue(true));
    const bedrock = endpointOf(result, "anthropic/claude-sonnet-4", "amazon-bedrock");
    expect(bedrock).toMatchObject({
      upstreamModel: "anthropic.claude-sonnet-4-20250514-v1:0",
      contextLength: 1_000_000,
      maxCompletionTokens: 64_000,
      pricing: {
        promptPico: 3_000_000n,
        completionPico: 15_000_000n,
        cacheReadPico: 300_000n,
        cacheWritePico: 3_750_000n,
      },
    });
    // supports_web_search is OpenRouter's `web_search_options`: the web plugin's native search marker.
    expect(bedrock?.supportedParameters).toEqual(
      expect.arrayContaining(["tools", "response_format", "reasoning", "web_search_options"]),
    );
    // The dated Vertex name and the undated one are one endpoint (same terms): the first is kept.
    expect(endpointOf(result, "anthropic/claude-sonnet-4", "google-vertex")?.upstreamModel).toBe(
      "claude-sonnet-4@20250514",
    );
    expect(result.skipped).toContain(
      "vertex_ai/claude-sonnet-4: another name of vertex_ai/claude-sonnet-4@20250514 (anthropic/claude-sonnet-4@google-vertex), same prices and limits",
    );
  });

  it("leaves out regional prices and cross-region profiles, saying why", () => {
    const result = parse(catalogue(true));
    expect(result.skipped).toEqual(
      expect.arrayContaining([
        "us.anthropic.claude-sonnet-4-20250514-v1:0: a cross-region inference profile of anthropic.claude-sonnet-4-20250514-v1:0",
        "bedrock/us-east-1/meta.llama3-70b-instruct-v1:0: a regional, provisioned-throughput or invoke-path price of a Bedrock model",
        "azure/eu/gpt-4o-2024-08-06: a regional Azure deployment type's price",
      ]),
    );
  });

  it("prefers the entry naming a model over a dated snapshot reaching it through an alias", () => {
    const result = parse(catalogue(true));
    const azure = endpointOf(result, "openai/gpt-4o", "azure");
    expect(azure).toMatchObject({
      upstreamModel: "gpt-4o",
      pricing: { promptPico: 2_500_000n, cacheReadPico: 1_250_000n },
    });
    expect(azure?.supportedParameters).toContain("parallel_tool_calls");
    expect(azure?.supportedParameters).not.toContain("web_search_options");
    expect(result.skipped).toContain(
      "azure/gpt-4o-2024-11-20: reaches openai/gpt-4o@azure through an alias; azure/gpt-4o names it and is imported",
    );
  });
});

describe("LiteLLM import: input modalities", () => {
  const importOne = (entry: Record<string, unknown>) =>
    parseImport(
      JSON.stringify({
        "gemini/gemini-x": { litellm_provider: "gemini", mode: "chat", input_cost_per_token: 1e-7, ...entry },
      }),
      {
        format: "litellm",
        current: bundledCatalog(),
        skipUnknownProviders: false,
      },
    ).models[0]?.endpoints[0]?.inputModalities;

  it("carries the audio prices: input_cost_per_audio_token and output_cost_per_audio_token", () => {
    const pricing = parseImport(
      JSON.stringify({
        "gemini/gemini-x": {
          litellm_provider: "gemini",
          mode: "chat",
          input_cost_per_token: 1e-7,
          input_cost_per_audio_token: 4e-5,
          output_cost_per_audio_token: 8e-5,
        },
      }),
      { format: "litellm", current: bundledCatalog(), skipUnknownProviders: false },
    ).models[0]?.endpoints[0]?.pricing;
    expect(pricing).toMatchObject({ audioPico: 40_000_000n, audioOutputPico: 80_000_000n });
  });

  it("reads vision, PDF input and audio (its flag, an audio price, or supported_modalities)", () => {
    expect(importOne({ supports_vision: true, supports_pdf_input: true })).toEqual(["text", "image", "file"]);
    expect(importOne({ supports_audio_input: true })).toEqual(["text", "audio"]);
    expect(importOne({ input_cost_per_audio_token: 1e-6 })).toEqual(["text", "audio"]);
    expect(importOne({ supported_modalities: ["text", "audio"], supports_vision: false })).toEqual([
      "text",
      "audio",
    ]);
  });

  it("leaves the catalogue's modalities alone for an entry that carries no media flag", () => {
    expect(importOne({})).toBeUndefined();
  });
});

describe("OpenRouter import: input modalities", () => {
  it("takes architecture.input_modalities, known names only", () => {
    const text = JSON.stringify({
      data: [
        {
          id: "acme/seer",
          name: "Seer",
          context_length: 1000,
          pricing: { prompt: "0.000001", completion: "0.000002" },
          architecture: { input_modalities: ["image", "text", "video", "file"], output_modalities: ["text"] },
        },
      ],
    });
    const parsed = parseImport(text, {
      format: "openrouter",
      current: bundledCatalog(),
      skipUnknownProviders: false,
    });
    expect(parsed.problems).toEqual([]);
    expect(parsed.models[0]?.endpoints[0]?.inputModalities).toEqual(["text", "image", "file"]);
  });
});
