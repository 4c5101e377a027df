import type { CloudEndpoint } from "./cloud.js";

// Source: LiteLLM's price file of 2026-07-24 (shared/reference/catalog/litellm-model-prices-full-2026-07-24.json),
// keys `vertex_ai/claude-*` (litellm_provider `vertex_ai-anthropic_models`) and `gemini-2.5-*`
// (`vertex_ai-language-models`): context, output cap and USD per MTok, cache read and 5-minute cache write
// included. Upstream names are Vertex's own (`claude-sonnet-4@20250514`, cloud.google.com/vertex-ai/
// generative-ai/docs/partner-models/claude/use-claude). Claude Sonnet 4 is listed at 200,000 tokens, not
// the file's 1,000,000: the 1M window needs the `context-1m` beta, which the gateway does not send, and is
// priced higher past 200k.
//
// Data governance (cloud.google.com/vertex-ai/generative-ai/docs/data-governance, "Generative AI and zero
// data retention"): Google does not train on customer data without permission (mayTrainOnData false), but
// by default caches inputs for up to 24 hours and may log prompts for abuse monitoring; zero retention
// needs per-project settings (caching off, an abuse-monitoring exception), so the seed claims ZDR for
// none. Such a project's operator declares it: VERTEX_ZERO_DATA_RETENTION=true, or the catalogue's
// data-policy route per endpoint (docs/catalog.md, "Zero data retention on the clouds"). Google publishes
// no quantization for these closed models (null).

const CLAUDE_CACHE = (prompt: string, completion: string, read: string, write: string) => ({
  prompt,
  completion,
  cacheRead: read,
  cacheWrite: write,
  reasoning: completion,
});

export const VERTEX_ENDPOINTS: readonly CloudEndpoint[] = [
  claude(
    "anthropic/claude-sonnet-4",
    "claude-sonnet-4@20250514",
    200_000,
    64_000,
    CLAUDE_CACHE("3", "15", "0.30", "3.75"),
  ),
  claude(
    "anthropic/claude-sonnet-4-5",
    "claude-sonnet-4-5@20250929",
    200_000,
    64_000,
    CLAUDE_CACHE("3", "15", "0.30", "3.75"),
  ),
  claude(
    "anthropic/claude-sonnet-4-6",
    "claude-sonnet-4-6",
    1_000_000,
    64_000,
    CLAUDE_CACHE("3", "15", "0.30", "3.75"),
  ),
  claude(
    "anthropic/claude-opus-4",
    "claude-opus-4@20250514",
    200_000,
    32_000,
    CLAUDE_CACHE("15", "75", "1.50", "18.75"),
  ),
  claude(
    "anthropic/claude-opus-4-1",
    "claude-opus-4-1@20250805",
    200_000,
    32_000,
    CLAUDE_CACHE("15", "75", "1.50", "18.75"),
  ),
  claude(
    "anthropic/claude-opus-4-5",
    "claude-opus-4-5@20251101",
    200_000,
    64_000,
    CLAUDE_CACHE("5", "25", "0.50", "6.25"),
  ),
  claude(
    "anthropic/claude-opus-4-6",
    "claude-opus-4-6",
    1_000_000,
    128_000,
    CLAUDE_CACHE("5", "25", "0.50", "6.25"),
  ),
  claude(
    "anthropic/claude-haiku-4-5",
    "claude-haiku-4-5@20251001",
    200_000,
    8_192,
    CLAUDE_CACHE("1", "5", "0.10", "1.25"),
  ),
  claude(
    "anthropic/claude-3-7-sonnet",
    "claude-3-7-sonnet@20250219",
    200_000,
    8_192,
    CLAUDE_CACHE("3", "15", "0.30", "3.75"),
  ),
  claude("anthropic/claude-3-5-haiku", "claude-3-5-haiku@20241022", 200_000, 8_192, {
    prompt: "1",
    completion: "5",
  }),
  gemini("google/gemini-2.5-pro", { prompt: "1.25", completion: "10", cacheRead: "0.125", reasoning: "10" }),
  gemini("google/gemini-2.5-flash", {
    prompt: "0.30",
    completion: "2.50",
    cacheRead: "0.03",
    reasoning: "2.50",
  }),
  gemini("google/gemini-2.5-flash-lite", {
    prompt: "0.10",
    completion: "0.40",
    cacheRead: "0.01",
    reasoning: "0.40",
  }),
];

function claude(
  modelId: string,
  upstream: string,
  context: number,
  output: number,
  price: CloudEndpoint["price"],
): CloudEndpoint {
  return { modelId, providerId: "google-vertex", upstream, context, output, price };
}

function gemini(modelId: string, price: CloudEndpoint["price"]): CloudEndpoint {
  const upstream = modelId.slice(modelId.indexOf("/") + 1);
  return { modelId, providerId: "google-vertex", upstream, context: 1_048_576, output: 65_535, price };
}
