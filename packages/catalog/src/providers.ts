import type { OpenAiDialect, ProviderInfo } from "./types.js";

// Base URLs are in the form each provider's SDK expects: OpenAI-compatible bases end in their version
// segment (the client appends `/chat/completions`); Anthropic and Gemini bases do not (their clients add
// `/v1/...` and `/v1beta/...`).
export const PROVIDERS: readonly ProviderInfo[] = [
  provider("openai", "OpenAI", "openai", "OPENAI", "https://api.openai.com/v1"),
  provider("anthropic", "Anthropic", "anthropic", "ANTHROPIC", "https://api.anthropic.com"),
  provider("google", "Google AI Studio", "gemini", "GEMINI", "https://generativelanguage.googleapis.com"),
  provider("mistral", "Mistral", "openai", "MISTRAL", "https://api.mistral.ai/v1"),
  provider("groq", "Groq", "openai", "GROQ", "https://api.groq.com/openai/v1"),
  provider("deepseek", "DeepSeek", "openai", "DEEPSEEK", "https://api.deepseek.com/v1"),
  provider("together", "Together", "openai", "TOGETHER", "https://api.together.xyz/v1"),
  provider("fireworks", "Fireworks", "openai", "FIREWORKS", "https://api.fireworks.ai/inference/v1"),
  provider("xai", "xAI", "openai", "XAI", "https://api.x.ai/v1"),
  // Signed with SigV4 from the standard AWS credentials, not a `_API_KEY`; the host is per region
  // (`bedrock-runtime.<region>.amazonaws.com`, `{region}` below), BEDROCK_BASE_URL overrides it for tests.
  provider(
    "amazon-bedrock",
    "Amazon Bedrock",
    "bedrock",
    "BEDROCK",
    "https://bedrock-runtime.{region}.amazonaws.com",
  ),
  // Clouds: Claude and Gemini on Vertex AI, GPT on Azure OpenAI. Vertex authenticates with a service account
  // or a bearer token (VERTEX_CREDENTIALS / VERTEX_ACCESS_TOKEN), not an API key; its host follows the
  // location (`{location}-aiplatform.googleapis.com`, the global endpoint below). Azure has no public base:
  // each resource is `https://{resource}.openai.azure.com`, so AZURE_OPENAI_BASE_URL is required.
  provider("google-vertex", "Google Vertex AI", "vertex", "VERTEX", "https://aiplatform.googleapis.com"),
  provider("azure", "Azure OpenAI", "azure", "AZURE_OPENAI", null),
  // OpenAI-compatible open-weight hosts (docs.deepinfra.com, OpenAI-compatible API;
  // inference-docs.cerebras.ai, OpenAI compatibility).
  provider("deepinfra", "DeepInfra", "openai", "DEEPINFRA", "https://api.deepinfra.com/v1/openai"),
  provider("cerebras", "Cerebras", "openai", "CEREBRAS", "https://api.cerebras.ai/v1"),
  // OpenRouter attributes traffic by these optional headers; they identify the gateway, not the end user.
  provider("openrouter", "OpenRouter", "openai", "OPENROUTER", "https://openrouter.ai/api/v1", {
    openAiDialect: {
      extraHeaders: { "HTTP-Referer": "https://github.com/model-gateway", "X-Title": "Model Gateway" },
      reasoningObject: true,
    },
  }),
  // Local servers: no key, and the base URL is the usual default of a local install.
  provider("ollama", "Ollama", "openai", "OLLAMA", "http://127.0.0.1:11434/v1", { requiresKey: false }),
  provider("vllm", "vLLM", "openai", "VLLM", "http://127.0.0.1:8000/v1", { requiresKey: false }),
  {
    id: "demo",
    name: "Built-in demo provider (not a real model)",
    apiFormat: "openai",
    isDemo: true,
    envPrefix: "DEMO",
    // The standalone app starts the fake OpenAI server in-process and points this provider at it.
    defaultBaseUrl: null,
    requiresKey: false,
  },
];

function provider(
  id: string,
  name: string,
  apiFormat: ProviderInfo["apiFormat"],
  envPrefix: string,
  defaultBaseUrl: string | null,
  options: { requiresKey?: boolean; openAiDialect?: OpenAiDialect } = {},
): ProviderInfo {
  return {
    id,
    name,
    apiFormat,
    isDemo: false,
    envPrefix,
    defaultBaseUrl,
    requiresKey: options.requiresKey ?? true,
    ...(options.openAiDialect ? { openAiDialect: options.openAiDialect } : {}),
  };
}

/** The environment variable names that configure a provider's credential and base URL. */
export function providerEnvVars(info: ProviderInfo): { apiKey: string; baseUrl: string } {
  return { apiKey: `${info.envPrefix}_API_KEY`, baseUrl: `${info.envPrefix}_BASE_URL` };
}
