import { openAiCompatibleProvider } from "../openai-compatible/index.js";
import type { ProviderFactory } from "../types.js";

export const fireworksProvider: ProviderFactory = (settings, timeouts) =>
  openAiCompatibleProvider(settings, timeouts);
