import type { ProviderFactory } from "../types.js";

/**
 * Registered so the planner can name it, but its chat translation (OpenAI request → Messages API and
 * back, events included) lands with the Anthropic surface. Until then the planner skips it with this
 * reason and a request with no other provider gets a 503 that says why.
 */
export const anthropicProvider: ProviderFactory = (settings) => ({
  id: settings.id,
  apiFormat: "anthropic",
  isDemo: settings.isDemo,
  chat: undefined,
  unsupported: "the Anthropic Messages format is not supported on this surface yet",
  close: async () => {},
});
