import { type OpenAiDialect, PROVIDERS, type ProviderInfo, providerEnvVars } from "@gw/catalog";
import { ConfigError, type Env } from "@gw/config";
import { providerKeyProblem } from "@gw/http";
import { AZURE_NO_BASE, type AzureOptions } from "./azure/api.js";
import { type AwsSettings, awsSettingsFromEnv } from "./bedrock/credentials.js";
import {
  azureFromEnv,
  azureOptionsFromEnv,
  type VertexOptions,
  vertexFromEnv,
  vertexOptionsFromEnv,
} from "./cloud-settings.js";

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
  /** Bedrock: the gateway's AWS identity and default region (`apiKey` is then unset, or an account's own). */
  aws?: AwsSettings;
  /** Google Vertex AI's project and location (cloud-settings.ts). */
  vertex?: VertexOptions;
  /** Azure OpenAI's api-version and deployments (cloud-settings.ts). */
  azure?: AzureOptions;
}

/** Reads `<PREFIX>_API_KEY` / `<PREFIX>_BASE_URL` for every provider the catalogue package knows. */
export function providerSettings(env: Env, demoUrl?: string): ProviderSettings[] {
  const settings: ProviderSettings[] = [];
  const issues: string[] = [];
  for (const info of PROVIDERS) {
    if (info.apiFormat === "bedrock") {
      const bedrock = bedrockSettings(env, info, issues);
      if (bedrock) settings.push(bedrock);
      continue;
    }
    if (info.apiFormat === "vertex" || info.apiFormat === "azure") {
      const cloud = cloudSettings(info, env, issues);
      if (cloud) settings.push(cloud);
      continue;
    }
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

/**
 * Bedrock is signed with the standard AWS credentials instead of a `_API_KEY`: it is configured when
 * they are set (bedrock/credentials.ts lists the sources); `BEDROCK_BASE_URL` replaces the regional
 * endpoint (`{region}` in it stands for the call's region).
 */
function bedrockSettings(env: Env, info: ProviderInfo, issues: string[]): ProviderSettings | undefined {
  const aws = awsSettingsFromEnv(env);
  const baseName = providerEnvVars(info).baseUrl;
  const explicitBase = nonEmpty(env[baseName]);
  if (explicitBase !== undefined && !isHttpUrl(explicitBase.replaceAll("{region}", "region"))) {
    issues.push(`${baseName}: expected an http(s) URL`);
    return undefined;
  }
  const baseUrl = explicitBase ?? info.defaultBaseUrl;
  if (aws === undefined || baseUrl === null) return undefined;
  return { ...fromCatalogue(info), baseUrl, apiKey: undefined, aws };
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
 * The clouds take credentials that are not one API key (a service-account key file, an Entra token) and
 * settings of their own; Azure has no public base URL, so it is on only with AZURE_OPENAI_BASE_URL.
 */
function cloudSettings(info: ProviderInfo, env: Env, issues: string[]): ProviderSettings | undefined {
  const baseName = providerEnvVars(info).baseUrl;
  const explicitBase = nonEmpty(env[baseName]);
  if (explicitBase !== undefined && !isHttpUrl(explicitBase)) {
    issues.push(`${baseName}: expected an http(s) URL`);
    return undefined;
  }
  const baseUrl = explicitBase ?? info.defaultBaseUrl;
  if (info.apiFormat === "vertex") {
    const vertex = vertexFromEnv(env, issues, explicitBase !== undefined);
    if (!vertex || baseUrl === null) return undefined;
    return { ...fromCatalogue(info), baseUrl, apiKey: vertex.credential, vertex: vertex.options };
  }
  const azure = azureFromEnv(env, issues);
  if (!azure) return undefined;
  if (baseUrl === null) {
    issues.push(
      `${baseName}: required with an Azure OpenAI credential (https://<resource>.openai.azure.com)`,
    );
    return undefined;
  }
  return { ...fromCatalogue(info), baseUrl, apiKey: azure.credential, azure: azure.options };
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
    const explicitBase = env[providerEnvVars(info).baseUrl]?.trim() || undefined;
    // An Azure account names its own resource in its credential (azure/credential.ts); this base serves
    // bare keys only. Vertex's host follows each endpoint's location unless a base is set.
    const baseUrl =
      explicitBase ?? info.defaultBaseUrl ?? (info.apiFormat === "azure" ? AZURE_NO_BASE : null);
    if (!baseUrl) continue;
    settings.push({
      ...fromCatalogue(info),
      ...byokCloudOptions(info, env, explicitBase !== undefined),
      baseUrl,
      apiKey: undefined,
    });
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

/** The gateway's own cloud options (region, project, location, api-version, deployments) apply to BYOK calls too. */
function byokCloudOptions(info: ProviderInfo, env: Env, explicitBase: boolean): Partial<ProviderSettings> {
  // An account's AWS credential may name no region: its calls then go to the gateway's default one.
  if (info.apiFormat === "bedrock") {
    const aws = awsSettingsFromEnv(env);
    return aws ? { aws } : {};
  }
  if (info.apiFormat === "vertex") return { vertex: vertexOptionsFromEnv(env, [], explicitBase) };
  if (info.apiFormat === "azure") return { azure: azureOptionsFromEnv(env, []) };
  return {};
}
