import type { ProviderRegistry } from "../providers/registry.js";
import type { Availability } from "./filters.js";

/** Whether this edge can send an embeddings request to a provider, and why not. */
export function embeddingsAvailability(providers: ProviderRegistry): (providerId: string) => Availability {
  return (providerId) => {
    const adapter = providers.get(providerId);
    if (!adapter) return chatAvailability(providers)(providerId);
    if (!adapter.embeddings)
      return { usable: false, code: "surface_not_supported", reason: "the provider has no embeddings API" };
    return { usable: true };
  };
}

/** Whether this edge can send a chat request to a provider, and why not. */
export function chatAvailability(providers: ProviderRegistry): (providerId: string) => Availability {
  return (providerId) => {
    const adapter = providers.get(providerId);
    if (!adapter) {
      return {
        usable: false,
        code: "provider_not_configured",
        reason: "the provider has no credentials on this gateway",
      };
    }
    if (!adapter.chat) {
      return {
        usable: false,
        code: "surface_not_supported",
        reason: adapter.unsupported ?? "not supported on this surface",
      };
    }
    return { usable: true };
  };
}
