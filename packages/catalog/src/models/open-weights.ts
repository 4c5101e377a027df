import { FREE, listPrice, unixDay } from "../pricing.js";
import type { Model } from "../types.js";
import { endpoint, model } from "./build.js";
import { dataPolicy } from "./data-policy.js";
import { OPEN_WEIGHTS_CHAT } from "./parameters.js";

// Open-weight models served by several OpenAI-compatible hosts at their own prices, so routing has choices.
// Sources (USD per 1M tokens), checked 2026-11-22: Groq pricing page (groq.com/pricing), Together serverless
// pricing (together.ai/pricing; "Turbo" endpoints run FP8), Fireworks serverless pricing
// (fireworks.ai/pricing, >16B parameters tier), DeepSeek "Models & Pricing" (api-docs.deepseek.com, the
// DeepSeek-V3 list for `deepseek-chat`; DeepSeek reprices with each model version, recheck before billing
// real traffic). Where a host publishes no separate output cap, output is bounded by the context window.

const LLAMA_CONTEXT = 131_072;

export const OPEN_WEIGHT_MODELS: readonly Model[] = [
  model({
    id: "meta-llama/llama-3.3-70b-instruct",
    name: "Meta: Llama 3.3 70B Instruct",
    kind: "chat",
    createdUnix: unixDay("2024-12-06"), // release day
    endpoints: [
      endpoint({
        providerId: "groq",
        upstreamModel: "llama-3.3-70b-versatile",
        contextLength: LLAMA_CONTEXT,
        maxCompletionTokens: 32_768,
        pricing: listPrice({ prompt: "0.59", completion: "0.79" }),
        supportedParameters: OPEN_WEIGHTS_CHAT,
      }),
      endpoint({
        providerId: "together",
        upstreamModel: "meta-llama/Llama-3.3-70B-Instruct-Turbo",
        contextLength: LLAMA_CONTEXT,
        maxCompletionTokens: LLAMA_CONTEXT,
        pricing: listPrice({ prompt: "0.88", completion: "0.88" }),
        quantization: "fp8",
        supportedParameters: OPEN_WEIGHTS_CHAT,
      }),
      endpoint({
        providerId: "fireworks",
        upstreamModel: "accounts/fireworks/models/llama-v3p3-70b-instruct",
        contextLength: LLAMA_CONTEXT,
        maxCompletionTokens: LLAMA_CONTEXT,
        pricing: listPrice({ prompt: "0.90", completion: "0.90" }),
        supportedParameters: OPEN_WEIGHTS_CHAT,
        ...dataPolicy("fireworks"),
      }),
    ],
  }),
  model({
    id: "meta-llama/llama-3.3-70b-instruct:free",
    name: "Meta: Llama 3.3 70B Instruct (free)",
    kind: "chat",
    createdUnix: unixDay("2024-12-06"),
    endpoints: [
      endpoint({
        // Together's free endpoint of the same weights; free-tier request limits apply on our side.
        providerId: "together",
        upstreamModel: "meta-llama/Llama-3.3-70B-Instruct-Turbo-Free",
        contextLength: LLAMA_CONTEXT,
        maxCompletionTokens: LLAMA_CONTEXT,
        pricing: FREE,
        quantization: "fp8",
        supportedParameters: OPEN_WEIGHTS_CHAT,
      }),
    ],
  }),
  model({
    id: "deepseek/deepseek-chat",
    name: "DeepSeek: DeepSeek V3",
    kind: "chat",
    createdUnix: unixDay("2024-12-26"), // DeepSeek-V3 release
    endpoints: [
      endpoint({
        providerId: "deepseek",
        upstreamModel: "deepseek-chat",
        contextLength: 64_000,
        maxCompletionTokens: 8_192,
        // Cache-miss input, output, and cache-hit input.
        pricing: listPrice({ prompt: "0.27", completion: "1.10", cacheRead: "0.07" }),
        supportedParameters: OPEN_WEIGHTS_CHAT,
      }),
    ],
  }),
];
