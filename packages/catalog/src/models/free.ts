import { FREE, unixDay } from "../pricing.js";
import type { Model } from "../types.js";
import { endpoint, model } from "./build.js";
import { OPEN_WEIGHTS_CHAT } from "./parameters.js";

// `:free` variants served through OpenRouter's free endpoints. Source: OpenRouter's documentation
// (openrouter.ai/docs, "Limits": a `:free` model takes up to 20 requests per minute), hence the
// model-specific request limit; the providers behind free endpoints may keep and train on prompts, so
// `mayTrainOnData` is set and `data_collection: "deny"` excludes them.

const FREE_LIMIT = { requests: 20, intervalSeconds: 60 } as const;

export const FREE_MODELS: readonly Model[] = [
  model({
    id: "deepseek/deepseek-chat-v3-0324:free",
    name: "DeepSeek: DeepSeek V3 0324 (free)",
    kind: "chat",
    createdUnix: unixDay("2025-03-24"),
    modelLimit: FREE_LIMIT,
    endpoints: [
      endpoint({
        providerId: "openrouter",
        upstreamModel: "deepseek/deepseek-chat-v3-0324:free",
        contextLength: 131_072,
        maxCompletionTokens: 8_192,
        pricing: FREE,
        mayTrainOnData: true,
        supportedParameters: OPEN_WEIGHTS_CHAT,
      }),
    ],
  }),
  model({
    id: "google/gemini-2.0-flash-exp:free",
    name: "Google: Gemini 2.0 Flash Experimental (free)",
    kind: "chat",
    createdUnix: unixDay("2024-12-11"),
    modelLimit: FREE_LIMIT,
    endpoints: [
      endpoint({
        providerId: "openrouter",
        upstreamModel: "google/gemini-2.0-flash-exp:free",
        contextLength: 1_048_576,
        maxCompletionTokens: 8_192,
        pricing: FREE,
        mayTrainOnData: true,
        supportedParameters: OPEN_WEIGHTS_CHAT,
      }),
    ],
  }),
];
