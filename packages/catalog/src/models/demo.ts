import { listPrice, unixDay } from "../pricing.js";
import type { Model } from "../types.js";
import { endpoint, model } from "./build.js";
import { OPENAI_EMBEDDING } from "./parameters.js";

// Served by the built-in demo provider (the fake OpenAI server in demo mode). Prices are our own, tiny and
// non-zero on purpose, so that the whole billing path (holds, settlement, usage cost) runs with real numbers
// in the embedded default. The date is fixed so that the catalogue version stays stable.

const DEMO_CREATED = unixDay("2026-01-01");

export const DEMO_MODELS: readonly Model[] = [
  model({
    id: "demo/echo",
    name: "Demo: Echo (built-in demo provider, not a real model)",
    kind: "chat",
    createdUnix: DEMO_CREATED,
    endpoints: [
      endpoint({
        providerId: "demo",
        upstreamModel: "echo",
        contextLength: 32_768,
        maxCompletionTokens: 4_096,
        pricing: listPrice({ prompt: "0.01", completion: "0.02" }),
        supportedParameters: [
          "max_tokens",
          "temperature",
          "top_p",
          "stop",
          "stream",
          "seed",
          "tools",
          "tool_choice",
        ],
      }),
    ],
  }),
  model({
    id: "demo/echo-embedding",
    name: "Demo: Echo Embedding (built-in demo provider, not a real model)",
    kind: "embedding",
    createdUnix: DEMO_CREATED,
    endpoints: [
      endpoint({
        providerId: "demo",
        upstreamModel: "echo-embedding",
        contextLength: 8_191,
        maxCompletionTokens: 0,
        pricing: listPrice({ prompt: "0.01" }),
        supportedParameters: OPENAI_EMBEDDING,
      }),
    ],
  }),
];
