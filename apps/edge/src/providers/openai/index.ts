import { openAiCompatibleProvider } from "../openai-compatible/index.js";
import type { ProviderFactory } from "../types.js";

export const openaiProvider: ProviderFactory = (settings, timeouts) =>
  openAiCompatibleProvider(settings, timeouts);
