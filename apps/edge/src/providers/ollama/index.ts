import { openAiCompatibleProvider } from "../openai-compatible/index.js";
import type { ProviderFactory } from "../types.js";

export const ollamaProvider: ProviderFactory = (settings, timeouts) =>
  openAiCompatibleProvider(settings, timeouts);
