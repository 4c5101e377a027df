import { readFileSync } from "node:fs";
import { parseAzureDeployments } from "@gw/catalog";
import type { Env } from "@gw/config";
import { parseAzureCredential, parseVertexCredential } from "@gw/http";
import { AZURE_DEFAULT_API_VERSION, type AzureOptions, isAzureApiVersion } from "./azure/api.js";
import { isVertexLocation, isVertexProject } from "./vertex/api.js";

/** Vertex's own settings: where an endpoint named by its model alone is served. */
export interface VertexOptions {
  readonly project: string | undefined;
  readonly location: string;
  /** VERTEX_BASE_URL was set: every location goes to that host instead of Google's regional ones. */
  readonly explicitBase: boolean;
}

export const VERTEX_DEFAULT_LOCATION = "global";

export interface CloudCredential<Options> {
  /** The credential text the adapter parses (a key file's JSON, a token, an Azure key). */
  readonly credential: string;
  readonly options: Options;
}

/**
 * VERTEX_CREDENTIALS (a service-account key file's JSON, or the file's path) or VERTEX_ACCESS_TOKEN (a
 * bearer token, used as is), VERTEX_PROJECT (default: the key file's project_id), VERTEX_LOCATION
 * (default `global`). Undefined when no credential is set (the provider is off); problems name the variable.
 */
export function vertexFromEnv(
  env: Env,
  issues: string[],
  explicitBase: boolean,
): CloudCredential<VertexOptions> | undefined {
  const token = nonEmpty(env.VERTEX_ACCESS_TOKEN);
  const source = nonEmpty(env.VERTEX_CREDENTIALS);
  const options = vertexOptionsFromEnv(env, issues, explicitBase);
  if (token === undefined && source === undefined) return undefined;
  let credential = token;
  if (source !== undefined) {
    credential = source.startsWith("{") ? source : readKeyFile(source, issues);
    if (credential === undefined) return undefined;
  }
  const parsed = parseVertexCredential(credential ?? "");
  const name = source !== undefined ? "VERTEX_CREDENTIALS" : "VERTEX_ACCESS_TOKEN";
  if ("problem" in parsed) {
    issues.push(`${name}: ${parsed.problem}`);
    return undefined;
  }
  if (source !== undefined && parsed.kind !== "service-account") {
    issues.push("VERTEX_CREDENTIALS: expected a service-account key file (JSON) or its path");
    return undefined;
  }
  return { credential: credential ?? "", options };
}

function readKeyFile(path: string, issues: string[]): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    issues.push(
      `VERTEX_CREDENTIALS: cannot read the key file (${(error as NodeJS.ErrnoException).code ?? "error"})`,
    );
    return undefined;
  }
}

/**
 * AZURE_OPENAI_API_KEY (the resource key, sent as `api-key`) or AZURE_OPENAI_AD_TOKEN (an Entra ID token,
 * sent as a bearer), AZURE_OPENAI_API_VERSION (a dated version, or `v1` for the v1 API) and
 * AZURE_OPENAI_DEPLOYMENTS (JSON: model name → deployment name, or `{"deployment", "zero_data_retention"}`).
 */
export function azureFromEnv(env: Env, issues: string[]): CloudCredential<AzureOptions> | undefined {
  const key = nonEmpty(env.AZURE_OPENAI_API_KEY);
  const entra = nonEmpty(env.AZURE_OPENAI_AD_TOKEN);
  const options = azureOptionsFromEnv(env, issues);
  const credential = key ?? entra;
  if (credential === undefined) return undefined;
  const parsed = parseAzureCredential(credential);
  if ("problem" in parsed || parsed.endpoint !== undefined) {
    issues.push(`${key ? "AZURE_OPENAI_API_KEY" : "AZURE_OPENAI_AD_TOKEN"}: must be a bare key or token`);
    return undefined;
  }
  if (entra !== undefined && key === undefined && parsed.kind !== "entra")
    issues.push("AZURE_OPENAI_AD_TOKEN: not a JWT (an Entra ID access token)");
  return { credential, options };
}

/** AZURE_OPENAI_API_VERSION and AZURE_OPENAI_DEPLOYMENTS, which an account's own Azure key uses too. */
export function azureOptionsFromEnv(env: Env, issues: string[]): AzureOptions {
  const apiVersion = nonEmpty(env.AZURE_OPENAI_API_VERSION) ?? AZURE_DEFAULT_API_VERSION;
  if (!isAzureApiVersion(apiVersion))
    issues.push("AZURE_OPENAI_API_VERSION: expected v1 or a dated version such as 2024-10-21");
  // The map's zero_data_retention flags are the keys app's (the catalogue's endpoints); the edge needs the names.
  const { deployments } = parseAzureDeployments(env.AZURE_OPENAI_DEPLOYMENTS, issues);
  return { apiVersion, deployments };
}

/** VERTEX_PROJECT and VERTEX_LOCATION, which an account's own service account uses too. */
export function vertexOptionsFromEnv(env: Env, issues: string[], explicitBase: boolean): VertexOptions {
  const project = nonEmpty(env.VERTEX_PROJECT);
  const location = nonEmpty(env.VERTEX_LOCATION) ?? VERTEX_DEFAULT_LOCATION;
  if (project !== undefined && !isVertexProject(project))
    issues.push("VERTEX_PROJECT: not a Google Cloud project id");
  if (!isVertexLocation(location))
    issues.push("VERTEX_LOCATION: not a Vertex AI location (e.g. us-east5, global)");
  return { project, location, explicitBase };
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}
