import { type OpenAiDialect, PROVIDERS, type ProviderInfo, providerEnvVars } from "@gw/catalog";
import { ConfigError, type Env } from "@gw/config";
import { providerKeyProblem } from "@gw/http";

export interface UpstreamTimeouts {
  /** TCP/TLS connect. */
  connectMs: number;
  /** Until the upstream's response headers arrive (for a non-streamed call that is the whole generation). */
  firstByteMs: number;
  /** The whole upstream call, body included. */
  totalMs: number;
}

/** One provider this edge may call: its key is set, or it needs none and its base URL is set. */
export interface ProviderSettings {
  id: string;
  apiFormat: ProviderInfo["apiFormat"];
  baseUrl: string;
  apiKey: string | undefined;
  isDemo: boolean;
  /** From the catalogue line of an OpenAI-compatible host that departs from OpenAI's API. */
  openAiDialect?: OpenAiDialect;
}

/** Reads `<PREFIX>_API_KEY` / `<PREFIX>_BASE_URL` for every provider the catalogue package knows. */
export function providerSettings(env: Env, demoUrl?: string): ProviderSettings[] {
  const settings: ProviderSettings[] = [];
  const issues: string[] = [];
  for (const info of PROVIDERS) {
    const names = providerEnvVars(info);
    const apiKey = nonEmpty(env[names.apiKey]);
    const keyProblem = apiKey === undefined ? undefined : providerKeyProblem(apiKey);
    if (keyProblem) {
      issues.push(`${names.apiKey}: ${keyProblem}`);
      continue;
    }
    const explicitBase = nonEmpty(info.isDemo ? (demoUrl ?? env[names.baseUrl]) : env[names.baseUrl]);
    const baseName = info.isDemo && demoUrl ? "DEMO_PROVIDER_URL" : names.baseUrl;
    if (explicitBase !== undefined && !isHttpUrl(explicitBase)) {
      issues.push(`${baseName}: expected an http(s) URL`);
      continue;
    }
    const enabled = info.requiresKey ? apiKey !== undefined : explicitBase !== undefined;
    const baseUrl = explicitBase ?? info.defaultBaseUrl;
    if (!enabled || baseUrl === null) continue;
    settings.push({ ...fromCatalogue(info), baseUrl, apiKey });
  }
  if (issues.length > 0) throw new ConfigError(issues);
  return settings;
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

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
    settings.push({ ...fromCatalogue(info), baseUrl, apiKey: undefined });
  }
  return settings;
}

/** What a provider's settings take from its catalogue line. */
function fromCatalogue(info: ProviderInfo): Omit<ProviderSettings, "baseUrl" | "apiKey"> {
  return {
    id: info.id,
    apiFormat: info.apiFormat,
    isDemo: info.isDemo,
    ...(info.openAiDialect ? { openAiDialect: info.openAiDialect } : {}),
  };
}
