import { openAiCompatibleProvider } from "../openai-compatible/index.js";
import type { ProviderFactory } from "../types.js";

// OpenRouter attributes traffic by these optional headers; they identify the gateway, not the end user.
export const openrouterProvider: ProviderFactory = (settings, timeouts) =>
  openAiCompatibleProvider(settings, timeouts, {
    extraHeaders: { "HTTP-Referer": "https://github.com/model-gateway", "X-Title": "Model Gateway" },
    reasoningObject: true,
  });
