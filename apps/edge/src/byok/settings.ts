import { PROVIDERS, providerEnvVars } from "@gw/catalog";
import type { Env } from "@gw/config";
import type { ProviderSettings } from "../config.js";

/**
 * Where an account's own key for each provider is sent: the provider's `<PREFIX>_BASE_URL` or its public
 * base URL, whether or not the gateway itself has a key for it. Keyless local servers and the demo
 * provider take no BYOK key.
 */
export function byokProviderSettings(env: Env): ProviderSettings[] {
  const settings: ProviderSettings[] = [];
  for (const info of PROVIDERS) {
    if (info.isDemo || !info.requiresKey) continue;
    const baseUrl = env[providerEnvVars(info).baseUrl]?.trim() || info.defaultBaseUrl;
    if (!baseUrl) continue;
    settings.push({ id: info.id, apiFormat: info.apiFormat, baseUrl, apiKey: undefined, isDemo: false });
  }
  return settings;
}
