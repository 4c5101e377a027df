import { listPrice, unixDay } from "../pricing.js";
import type { Model } from "../types.js";
import { endpoint, model } from "./build.js";
import { GEMINI_CHAT, GEMINI_EMBEDDING } from "./parameters.js";

// Source: Gemini Developer API pricing page (ai.google.dev/gemini-api/docs/pricing, paid tier, USD per 1M
// tokens, text/image/video input), checked 2026-11-22. Thinking tokens are billed at the output price.
// Gemini 2.5 Pro charges more for prompts over 200k tokens ($2.50 in / $15 out / $0.25 cached); the snapshot
// has one price per field, so the <=200k tier is listed and long prompts are under-priced until
// tiered prices exist. Audio input has its own price on Flash ($1.00) and Flash-Lite ($0.30); Pro bills
// audio as text. Cache storage per hour is not modelled.

// Images, PDF documents and audio (ai.google.dev "Image understanding", "Document understanding",
// "Audio understanding"; LiteLLM supports_vision, supports_pdf_input and an audio input price).
const GEMINI_INPUT = ["text", "image", "file", "audio"] as const;

const CONTEXT = 1_048_576;
const MAX_OUTPUT = 65_536;

export const GOOGLE_MODELS: readonly Model[] = [
  model({
    id: "google/gemini-2.5-flash-lite",
    name: "Google: Gemini 2.5 Flash-Lite",
    kind: "chat",
    createdUnix: unixDay("2025-07-22"), // general availability
    endpoints: [
      endpoint({
        providerId: "google",
        upstreamModel: "gemini-2.5-flash-lite",
        contextLength: CONTEXT,
        maxCompletionTokens: MAX_OUTPUT,
        pricing: listPrice({
          prompt: "0.10",
          completion: "0.40",
          cacheRead: "0.025",
          reasoning: "0.40",
          audio: "0.30",
        }),
        supportedParameters: GEMINI_CHAT,
        inputModalities: GEMINI_INPUT,
      }),
    ],
  }),
  model({
    id: "google/gemini-2.5-flash",
    name: "Google: Gemini 2.5 Flash",
    kind: "chat",
    createdUnix: unixDay("2025-06-17"), // general availability
    endpoints: [
      endpoint({
        providerId: "google",
        upstreamModel: "gemini-2.5-flash",
        contextLength: CONTEXT,
        maxCompletionTokens: MAX_OUTPUT,
        pricing: listPrice({
          prompt: "0.30",
          completion: "2.50",
          cacheRead: "0.03",
          reasoning: "2.50",
          audio: "1.00",
        }),
        supportedParameters: GEMINI_CHAT,
        inputModalities: GEMINI_INPUT,
      }),
    ],
  }),
  model({
    id: "google/gemini-2.5-pro",
    name: "Google: Gemini 2.5 Pro",
    kind: "chat",
    createdUnix: unixDay("2025-06-17"), // general availability
    endpoints: [
      endpoint({
        providerId: "google",
        upstreamModel: "gemini-2.5-pro",
        contextLength: CONTEXT,
        maxCompletionTokens: MAX_OUTPUT,
        pricing: listPrice({ prompt: "1.25", completion: "10", cacheRead: "0.125", reasoning: "10" }),
        supportedParameters: GEMINI_CHAT,
        inputModalities: GEMINI_INPUT,
      }),
    ],
  }),
  model({
    id: "google/text-embedding-004",
    name: "Google: Text Embedding 004",
    kind: "embedding",
    createdUnix: unixDay("2024-04-09"), // announced at Google Cloud Next '24
    endpoints: [
      endpoint({
        providerId: "google",
        upstreamModel: "text-embedding-004",
        contextLength: 2_048,
        maxCompletionTokens: 0,
        // The Gemini Developer API lists this model as free of charge (it has no paid-tier price).
        pricing: listPrice({ prompt: "0" }),
        supportedParameters: GEMINI_EMBEDDING,
      }),
    ],
  }),
  model({
    id: "google/gemini-embedding-001",
    name: "Google: Gemini Embedding 001",
    kind: "embedding",
    createdUnix: unixDay("2025-07-14"), // general availability
    endpoints: [
      endpoint({
        providerId: "google",
        upstreamModel: "gemini-embedding-001",
        contextLength: 2_048,
        maxCompletionTokens: 0,
        pricing: listPrice({ prompt: "0.15" }),
        supportedParameters: GEMINI_EMBEDDING,
      }),
    ],
  }),
];
