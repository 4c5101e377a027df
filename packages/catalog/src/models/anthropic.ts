import { listPrice, unixDay } from "../pricing.js";
import type { Model } from "../types.js";
import { endpoint, model } from "./build.js";
import { ANTHROPIC_CHAT, ANTHROPIC_REASONING_CHAT } from "./parameters.js";

// Source: Anthropic pricing page (docs.claude.com/en/docs/about-claude/pricing, USD per MTok), checked
// 2026-11-22. `cacheWrite` is the 5-minute cache write (1.25x input); the 1-hour write (2x input) has no
// field of its own in the snapshot. Thinking tokens are billed as output tokens.

// Images and PDF documents, no audio (docs.claude.com "Vision" and "PDF support", whose model list
// includes both of these; LiteLLM supports_vision, supports_pdf_input).
const CLAUDE_INPUT = ["text", "image", "file"] as const;

export const ANTHROPIC_MODELS: readonly Model[] = [
  model({
    id: "anthropic/claude-sonnet-4",
    name: "Anthropic: Claude Sonnet 4",
    kind: "chat",
    createdUnix: unixDay("2025-05-22"), // release day
    endpoints: [
      endpoint({
        providerId: "anthropic",
        upstreamModel: "claude-sonnet-4-20250514",
        contextLength: 200_000,
        maxCompletionTokens: 64_000,
        pricing: listPrice({
          prompt: "3",
          completion: "15",
          cacheRead: "0.30",
          cacheWrite: "3.75",
          reasoning: "15",
        }),
        supportedParameters: ANTHROPIC_REASONING_CHAT,
        inputModalities: CLAUDE_INPUT,
      }),
    ],
  }),
  model({
    id: "anthropic/claude-3-5-haiku",
    name: "Anthropic: Claude 3.5 Haiku",
    kind: "chat",
    // Anthropic's own alias and the dated snapshot it points to (docs.claude.com, models overview).
    aliases: ["anthropic/claude-3-5-haiku-latest", "anthropic/claude-3-5-haiku-20241022"],
    createdUnix: unixDay("2024-10-22"), // the snapshot date in its upstream name
    endpoints: [
      endpoint({
        providerId: "anthropic",
        upstreamModel: "claude-3-5-haiku-20241022",
        contextLength: 200_000,
        maxCompletionTokens: 8_192,
        pricing: listPrice({ prompt: "0.80", completion: "4", cacheRead: "0.08", cacheWrite: "1" }),
        supportedParameters: ANTHROPIC_CHAT,
        inputModalities: CLAUDE_INPUT,
      }),
    ],
  }),
];
