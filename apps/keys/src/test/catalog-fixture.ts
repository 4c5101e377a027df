import type { Model, Pricing, Provider } from "@gw/proto/catalog/v1/catalog";
import type { CatalogContent } from "../catalog/content.js";

/** Per-token prices in pico-dollars: 0.15 / 0.60 USD per million tokens. */
export const CHEAP: Pricing = {
  promptPico: 150_000n,
  completionPico: 600_000n,
  requestPico: 0n,
  imagePico: 0n,
  cacheReadPico: 75_000n,
  cacheWritePico: 0n,
  reasoningPico: 0n,
  audioPico: 0n,
  audioOutputPico: 0n,
};

const PROVIDERS: Provider[] = [
  { id: "openai", name: "OpenAI", apiFormat: "openai", isDemo: false },
  { id: "together", name: "Together", apiFormat: "openai", isDemo: false },
  { id: "demo", name: "Demo", apiFormat: "openai", isDemo: true },
  // The clouds, whose BYOK credentials have shapes of their own (byok-cloud-credentials.int.test.ts).
  { id: "google-vertex", name: "Google Vertex AI", apiFormat: "vertex", isDemo: false },
  { id: "azure", name: "Azure OpenAI", apiFormat: "azure", isDemo: false },
];

const MODELS: Model[] = [
  {
    id: "openai/gpt-4o-mini",
    name: "OpenAI: GPT-4o mini",
    author: "openai",
    kind: "chat",
    createdUnix: 1721172741n,
    contextLength: 128_000,
    isFree: false,
    aliases: [],
    endpoints: [
      {
        providerId: "openai",
        upstreamModel: "gpt-4o-mini",
        contextLength: 128_000,
        maxCompletionTokens: 16_384,
        pricing: CHEAP,
        quantization: "",
        isZdr: false,
        supportedParameters: ["max_tokens", "stream", "tools"],
        mayTrainOnData: false,
        inputModalities: ["text", "image", "file"],
      },
    ],
  },
  {
    id: "meta-llama/llama-3.3-70b-instruct",
    name: "Meta: Llama 3.3 70B Instruct",
    author: "meta-llama",
    kind: "chat",
    createdUnix: 1733506137n,
    contextLength: 131_072,
    isFree: false,
    aliases: [],
    endpoints: [
      {
        providerId: "together",
        upstreamModel: "meta-llama/Llama-3.3-70B-Instruct-Turbo",
        contextLength: 131_072,
        maxCompletionTokens: 8_192,
        pricing: { ...CHEAP, promptPico: 880_000n, completionPico: 880_000n, requestPico: 1_000_000n },
        quantization: "fp8",
        isZdr: true,
        supportedParameters: ["max_tokens", "stream", "response_format"],
        mayTrainOnData: false,
        inputModalities: ["text"],
      },
      {
        providerId: "demo",
        upstreamModel: "llama-demo",
        contextLength: 8_192,
        maxCompletionTokens: 1_024,
        pricing: { ...CHEAP, promptPico: 0n, completionPico: 0n, cacheReadPico: 0n },
        quantization: "",
        isZdr: false,
        supportedParameters: ["max_tokens"],
        mayTrainOnData: false,
        inputModalities: ["text"],
      },
    ],
    modelLimit: { requests: 20, intervalSeconds: 60 },
  },
];

/** A small catalogue the tests control, so they do not depend on the bundled model list. */
export function fixtureCatalog(): CatalogContent {
  return structuredClone({ providers: PROVIDERS, models: MODELS });
}
