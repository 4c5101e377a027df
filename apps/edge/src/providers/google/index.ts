import type { ProviderFactory } from "../types.js";

/** Registered for planning; its generateContent translation lands with the Gemini surface. */
export const googleProvider: ProviderFactory = (settings) => ({
  id: settings.id,
  apiFormat: "gemini",
  isDemo: settings.isDemo,
  chat: undefined,
  unsupported: "the Gemini generateContent format is not supported on this surface yet",
  close: async () => {},
});
