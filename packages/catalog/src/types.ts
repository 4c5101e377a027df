import type { Pico } from "@gw/money";

/** Wire format a provider speaks; the edge picks its adapter from this. */
export type ApiFormat = "openai" | "anthropic" | "gemini" | "bedrock" | "vertex" | "azure";

export type ModelKind = "chat" | "embedding";

/** The quantizations the spec allows; `null` where the provider does not publish one. */
export type Quantization = "fp32" | "fp16" | "bf16" | "fp8" | "int8" | "int4";

export const QUANTIZATIONS: readonly Quantization[] = ["fp32", "fp16", "bf16", "fp8", "int8", "int4"];

export type ModelVariant = "free" | "floor" | "nitro";

/**
 * What a model reads, named as OpenRouter's `architecture.input_modalities`: `file` is a PDF document
 * (a `file` content part, Anthropic's `document`), `audio` an `input_audio` part.
 */
export type InputModality = "text" | "image" | "file" | "audio";

export const INPUT_MODALITIES: readonly InputModality[] = ["text", "image", "file", "audio"];

/**
 * One upstream. `id`, `name`, `apiFormat` and `isDemo` are the proto `catalog.v1.Provider`; the rest is
 * local configuration the edge needs to reach the provider and never crosses the wire.
 */
export interface ProviderInfo {
  readonly id: string;
  readonly name: string;
  readonly apiFormat: ApiFormat;
  readonly isDemo: boolean;
  /** Credentials come from `<envPrefix>_API_KEY` and `<envPrefix>_BASE_URL`. */
  readonly envPrefix: string;
  /** The real public API base in the form its SDK expects; `null` for the demo (the app supplies it). */
  readonly defaultBaseUrl: string | null;
  readonly requiresKey: boolean;
  /** How an OpenAI-compatible host departs from OpenAI's own API; absent = not at all. */
  readonly openAiDialect?: OpenAiDialect;
}

/**
 * The few ways OpenAI-compatible hosts differ on the wire. A new compatible host is one catalogue line
 * (PROVIDERS), with this only when it needs one of them; the edge's shared adapter reads it.
 */
export interface OpenAiDialect {
  /** Headers sent on every call besides the bearer credential. */
  readonly extraHeaders?: Readonly<Record<string, string>>;
  /** The host takes OpenRouter's `reasoning` object; others get `reasoning_effort`. */
  readonly reasoningObject?: boolean;
  /** The host rejects `stream_options.include_usage`; its streams are then metered on our own count. */
  readonly noStreamUsage?: boolean;
}

/**
 * Prices in integer pico-dollars (1e-12 USD), named as in proto `catalog.v1.Pricing`. Per-token fields are per
 * single token; `requestPico` per request; `imagePico` per input image. Cache and reasoning prices replace the
 * prompt/completion price for those tokens (reasoning tokens are counted inside completion tokens, so a
 * provider that bills them as output has `reasoningPico === completionPico`); 0 means the provider lists no
 * such charge.
 */
export interface Pricing {
  readonly promptPico: Pico;
  readonly completionPico: Pico;
  readonly requestPico: Pico;
  readonly imagePico: Pico;
  readonly cacheReadPico: Pico;
  readonly cacheWritePico: Pico;
  readonly reasoningPico: Pico;
  /** Per input audio token where audio is priced apart from text; 0: at `promptPico`. */
  readonly audioPico: Pico;
  /** Per output audio token where spoken output is priced apart from text; 0: at `completionPico`. */
  readonly audioOutputPico: Pico;
}

/** Proto `catalog.v1.RequestLimit`: a model-specific cap that applies whatever the account. */
export interface RequestLimit {
  readonly requests: number;
  readonly intervalSeconds: number;
}

/** Proto `catalog.v1.Endpoint`: one provider serving one model at its own price and limits. */
export interface Endpoint {
  readonly providerId: string;
  /** The provider's own model name, sent upstream (native routes use it without an author prefix). */
  readonly upstreamModel: string;
  readonly contextLength: number;
  /** 0 for embedding models, which produce no completion tokens. */
  readonly maxCompletionTokens: number;
  readonly pricing: Pricing;
  readonly quantization: Quantization | null;
  readonly isZdr: boolean;
  readonly supportedParameters: readonly string[];
  /** Data policy: the provider may train on (or keep) prompts; `data_collection: "deny"` excludes it. */
  readonly mayTrainOnData: boolean;
  /** What this endpoint's model reads (always `text` first); the planner prefers endpoints that take the media sent. */
  readonly inputModalities: readonly InputModality[];
}

/** Proto `catalog.v1.Model`. */
export interface Model {
  /** `<author>/<slug>`, with `:free` for free-tier variants. */
  readonly id: string;
  readonly name: string;
  readonly author: string;
  readonly kind: ModelKind;
  readonly createdUnix: bigint;
  readonly contextLength: number;
  readonly isFree: boolean;
  readonly endpoints: readonly Endpoint[];
  readonly modelLimit: RequestLimit | null;
  /** Other ids resolving to this model (provider aliases such as `claude-3-5-haiku-latest`, dated ids). */
  readonly aliases: readonly string[];
}

export interface CatalogData {
  readonly providers: readonly ProviderInfo[];
  readonly models: readonly Model[];
}
