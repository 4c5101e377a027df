import { openAiCompatibleProvider } from "../openai-compatible/index.js";
import type { ProviderFactory } from "../types.js";

/**
 * The built-in demo provider: a deterministic fake OpenAI server (from @gw/fake-providers) that the
 * standalone app starts and points `DEMO_PROVIDER_URL` at. It speaks the real OpenAI wire format, so
 * it runs the same adapter as every OpenAI-compatible host.
 */
export const demoProvider: ProviderFactory = (settings, timeouts) =>
  openAiCompatibleProvider(settings, timeouts);
