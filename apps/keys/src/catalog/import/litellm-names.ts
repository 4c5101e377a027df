// How LiteLLM's keys and provider names map onto the catalogue's providers, upstream names and model
// ids. Facts from LiteLLM's model_prices_and_context_window.json of 2026-07-24 (the shared reference's
// full file): Bedrock keys are Bedrock model ids (`anthropic.claude-sonnet-4-20250514-v1:0`), with
// cross-region inference profiles prefixed (`us.`, `eu.`, `global.`, ...) and regional or
// provisioned-throughput prices under `bedrock/<region>/...`; Vertex keys are `vertex_ai/<model>` with
// Anthropic's dated names as `<name>@<yyyymmdd>`; Azure's regional deployment types are
// `azure/<eu|us|global|global-standard>/<model>`.

export interface MappedProvider {
  /** Our provider id. */
  provider: string;
  /** The author of every model this provider name lists, when it lists one author's models only. */
  author?: string;
}

/** LiteLLM provider name -> our provider id, and the model author for first-party providers. */
const PROVIDERS: Readonly<Record<string, MappedProvider>> = {
  openai: { provider: "openai", author: "openai" },
  anthropic: { provider: "anthropic", author: "anthropic" },
  gemini: { provider: "google", author: "google" },
  xai: { provider: "xai", author: "x-ai" },
  deepseek: { provider: "deepseek", author: "deepseek" },
  mistral: { provider: "mistral", author: "mistralai" },
  groq: { provider: "groq" },
  together_ai: { provider: "together" },
  fireworks_ai: { provider: "fireworks" },
  deepinfra: { provider: "deepinfra" },
  cerebras: { provider: "cerebras" },
  openrouter: { provider: "openrouter" },
  ollama: { provider: "ollama" },
  ollama_chat: { provider: "ollama" },
  hosted_vllm: { provider: "vllm" },
  azure: { provider: "azure", author: "openai" },
  bedrock: { provider: "amazon-bedrock" },
  bedrock_converse: { provider: "amazon-bedrock" },
};

/** `vertex_ai-<family>` -> the author of that family's models on Vertex (all served by google-vertex). */
const VERTEX_AUTHORS: Readonly<Record<string, string>> = {
  "language-models": "google",
  "embedding-models": "google",
  "text-models": "google",
  anthropic_models: "anthropic",
  llama_models: "meta-llama",
  mistral_models: "mistralai",
  deepseek_models: "deepseek",
  openai_models: "openai",
  qwen_models: "qwen",
  zai_models: "z-ai",
  moonshot_models: "moonshotai",
  minimax_models: "minimax",
  ai21_models: "ai21",
};

/** Bedrock's vendor prefix (`meta.llama3-...`) -> the catalogue's author. */
const BEDROCK_AUTHORS: Readonly<Record<string, string>> = {
  meta: "meta-llama",
  mistral: "mistralai",
  moonshot: "moonshotai",
  zai: "z-ai",
};

/** Bedrock's cross-region inference profiles: the same model, routed across a geography's regions. */
const BEDROCK_PROFILE = /^(us|eu|apac|au|jp|ca|global|us-gov)\.(?=[a-z0-9-]+\.)/;
const AZURE_REGIONAL = /^azure\/(eu|us|global|global-standard)\//;

export function mapProvider(litellmProvider: string): MappedProvider | undefined {
  const direct = PROVIDERS[litellmProvider];
  if (direct) return direct;
  if (!litellmProvider.startsWith("vertex_ai")) return undefined;
  const author = VERTEX_AUTHORS[litellmProvider.slice("vertex_ai-".length)];
  return author ? { provider: "google-vertex", author } : { provider: "google-vertex" };
}

/**
 * Why an entry of the file is left out though its provider is known, or undefined: regional and
 * committed-throughput prices (the on-demand list price is imported; an operator sets a region's price
 * through the endpoint's overrides), and a Bedrock cross-region profile whose base model the file also
 * lists (the profile is an upstream name an operator points the endpoint at, not another model).
 */
export function cloudSkipReason(
  key: string,
  provider: string,
  keys: ReadonlySet<string>,
): string | undefined {
  if (provider === "amazon-bedrock") {
    if (key.startsWith("bedrock/"))
      return "a regional, provisioned-throughput or invoke-path price of a Bedrock model";
    const base = key.replace(BEDROCK_PROFILE, "");
    if (base !== key && keys.has(base)) return `a cross-region inference profile of ${base}`;
  }
  if (provider === "azure" && AZURE_REGIONAL.test(key)) return "a regional Azure deployment type's price";
  return undefined;
}

/** The name sent upstream: the key without LiteLLM's provider prefix. */
export function upstreamName(key: string, litellmProvider: string): string {
  const slash = key.indexOf("/");
  if (slash === -1) return key;
  const prefix = key.slice(0, slash);
  const known = prefix === litellmProvider || mapProvider(prefix) !== undefined || prefix === "vertex_ai";
  return known ? key.slice(slash + 1) : key;
}

/**
 * A cloud's upstream name as the model's own name and author: Bedrock's `us.anthropic.claude-…-v1:0`
 * is Anthropic's `claude-…`, Vertex's `claude-sonnet-4@20250514` is `claude-sonnet-4-20250514` and
 * `meta/llama-3.1-8b-instruct-maas` is Meta's `llama-3.1-8b-instruct`. Other providers' names pass as
 * they are.
 */
export function modelName(
  provider: string,
  upstream: string,
  author: string | undefined,
): { name: string; author: string | undefined } {
  if (provider === "amazon-bedrock") {
    const bare = upstream.replace(BEDROCK_PROFILE, "");
    const dot = bare.indexOf(".");
    const vendor = dot === -1 ? undefined : bare.slice(0, dot);
    // `-v1:0` is Bedrock's revision of another vendor's model (`claude-sonnet-4-20250514-v1:0`,
    // `gpt-oss-120b-1:0`); Amazon's own names keep their version (`nova-lite-v1`, `titan-embed-text-v2`).
    const name = bare
      .slice(dot + 1)
      .replace(vendor === "amazon" ? /:\d+$/ : /-v\d+(:\d+)?$|-\d+:\d+$/, "")
      .replace(/@(\d{8})$/, "-$1");
    return {
      name: vendor === "meta" ? llamaName(name) : name,
      author: vendor === undefined ? author : (BEDROCK_AUTHORS[vendor] ?? vendor),
    };
  }
  if (provider === "google-vertex") {
    const name = upstream
      .replace(/@(\d{8})$/, "-$1")
      .replace(/@default$/, "")
      .replace(/-maas$/, "");
    return name.startsWith("meta/") ? { name: llamaName(name.slice(5)), author } : { name, author };
  }
  return { name: upstream, author };
}

/**
 * Meta's models as the clouds name them, in the form the catalogue uses (OpenRouter's): Bedrock's
 * `llama3-3-70b-instruct` is `llama-3.3-70b-instruct`, `llama4-maverick-17b-instruct` and Vertex's
 * `llama-4-maverick-17b-128e-instruct` are `llama-4-maverick`.
 */
function llamaName(name: string): string {
  return name
    .replace(/^llama(\d)-(\d)-/, "llama-$1.$2-")
    .replace(/^llama(\d)-/, "llama-$1-")
    .replace(/^llama-4-maverick-17b(-128e)?-instruct$/, "llama-4-maverick")
    .replace(/^llama-4-scout-17b(-16e)?-instruct$/, "llama-4-scout");
}
