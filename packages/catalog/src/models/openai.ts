import { listPrice } from "../pricing.js";
import type { Model } from "../types.js";
import { endpoint, model } from "./build.js";
import { OPENAI_CHAT, OPENAI_EMBEDDING } from "./parameters.js";

// Source: OpenAI API pricing page (platform.openai.com/docs/pricing, standard tier, USD per 1M tokens),
// checked 2026-11-22. `created` is the exact value OpenAI's GET /v1/models reports for each id.

// Images and PDF files (OpenAI "Images and vision", "File inputs"; LiteLLM supports_vision, supports_pdf_input).
const OPENAI_VISION = ["text", "image", "file"] as const;

export const OPENAI_MODELS: readonly Model[] = [
  model({
    id: "openai/gpt-4o-mini",
    name: "OpenAI: GPT-4o mini",
    kind: "chat",
    createdUnix: 1721172741n,
    endpoints: [
      endpoint({
        providerId: "openai",
        upstreamModel: "gpt-4o-mini",
        contextLength: 128_000,
        maxCompletionTokens: 16_384,
        pricing: listPrice({ prompt: "0.15", completion: "0.60", cacheRead: "0.075" }),
        supportedParameters: OPENAI_CHAT,
        inputModalities: OPENAI_VISION,
      }),
    ],
  }),
  model({
    id: "openai/gpt-4o",
    name: "OpenAI: GPT-4o",
    kind: "chat",
    createdUnix: 1715367049n,
    endpoints: [
      endpoint({
        providerId: "openai",
        upstreamModel: "gpt-4o",
        contextLength: 128_000,
        maxCompletionTokens: 16_384,
        pricing: listPrice({ prompt: "2.50", completion: "10.00", cacheRead: "1.25" }),
        supportedParameters: OPENAI_CHAT,
        inputModalities: OPENAI_VISION,
      }),
    ],
  }),
  model({
    id: "openai/text-embedding-3-small",
    name: "OpenAI: Text Embedding 3 Small",
    kind: "embedding",
    createdUnix: 1705948997n,
    endpoints: [
      endpoint({
        providerId: "openai",
        upstreamModel: "text-embedding-3-small",
        contextLength: 8_191,
        maxCompletionTokens: 0,
        pricing: listPrice({ prompt: "0.02" }),
        supportedParameters: OPENAI_EMBEDDING,
      }),
    ],
  }),
];
