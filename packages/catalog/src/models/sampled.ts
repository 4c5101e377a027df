import { type ListPrice, listPrice, unixDay } from "../pricing.js";
import type { InputModality, Model } from "../types.js";
import { endpoint, model } from "./build.js";
import {
  ANTHROPIC_CHAT,
  ANTHROPIC_REASONING_CHAT,
  GEMINI_CHAT,
  OPEN_WEIGHTS_CHAT,
  OPENAI_CHAT,
  OPENAI_EMBEDDING,
} from "./parameters.js";

/** One model of the LiteLLM sample (litellm-sample.ts, generated), prices in USD per million tokens. */
export interface SampledModel {
  readonly id: string;
  readonly provider: string;
  readonly upstream: string;
  readonly kind: "chat" | "embedding";
  readonly context: number;
  readonly output: number;
  readonly price: ListPrice;
  readonly tools: boolean;
  readonly reasoning: boolean;
  /** What the model reads, from LiteLLM's supports_vision / supports_pdf_input / audio flags. */
  readonly modalities: readonly InputModality[];
  readonly aliases: readonly string[];
}

const AUTHOR_NAMES: Readonly<Record<string, string>> = {
  openai: "OpenAI",
  anthropic: "Anthropic",
  google: "Google",
  "x-ai": "xAI",
  deepseek: "DeepSeek",
};

const DATE = /-(\d{4})-?(\d{2})-?(\d{2})$/;

/**
 * The sample's models as catalogue entries, merged with the hand-kept ones: a sampled model a kept one
 * already serves (same id, or same upstream name at the same provider) only lends it its dated aliases,
 * so the hand-kept prices, names and parameters (and every id the tests use) stay as they are.
 */
export function withSample(
  kept: readonly Model[],
  sample: readonly SampledModel[],
  sampleDay: string,
): Model[] {
  const models: Array<Model & { aliases: string[] }> = kept.map((m) => ({ ...m, aliases: [...m.aliases] }));
  for (const entry of sample) {
    const served = models.find(
      (m) =>
        m.id === entry.id ||
        m.endpoints.some((e) => e.providerId === entry.provider && e.upstreamModel === entry.upstream),
    );
    if (served) {
      for (const alias of entry.aliases) if (!served.aliases.includes(alias)) served.aliases.push(alias);
      continue;
    }
    const added = sampledModel(entry, sampleDay);
    models.push({ ...added, aliases: [...added.aliases] });
  }
  return models;
}

function sampledModel(entry: SampledModel, sampleDay: string): Model {
  const author = entry.id.slice(0, entry.id.indexOf("/"));
  // A dated upstream name is its snapshot day; otherwise the sample's day stands in (stable, so the
  // catalogue version does not move between builds).
  const dated = DATE.exec(entry.upstream);
  const day = dated ? `${dated[1]}-${dated[2]}-${dated[3]}` : sampleDay;
  return model({
    id: entry.id,
    name: `${AUTHOR_NAMES[author] ?? author}: ${entry.id.slice(entry.id.indexOf("/") + 1)}`,
    kind: entry.kind,
    createdUnix: Number.isNaN(Date.parse(day)) ? unixDay(sampleDay) : unixDay(day),
    aliases: entry.aliases,
    endpoints: [
      endpoint({
        providerId: entry.provider,
        upstreamModel: entry.upstream,
        contextLength: entry.context,
        maxCompletionTokens: entry.output,
        pricing: listPrice(entry.price),
        supportedParameters: parameters(entry),
        inputModalities: entry.modalities,
      }),
    ],
  });
}

function parameters(entry: SampledModel): readonly string[] {
  if (entry.kind === "embedding") return OPENAI_EMBEDDING;
  const base =
    entry.provider === "openai"
      ? OPENAI_CHAT
      : entry.provider === "anthropic"
        ? entry.reasoning
          ? ANTHROPIC_REASONING_CHAT
          : ANTHROPIC_CHAT
        : entry.provider === "google"
          ? GEMINI_CHAT
          : OPEN_WEIGHTS_CHAT;
  return entry.tools
    ? base
    : base.filter((p) => p !== "tools" && p !== "tool_choice" && p !== "parallel_tool_calls");
}
