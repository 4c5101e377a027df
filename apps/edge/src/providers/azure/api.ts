// Azure OpenAI's data-plane paths (learn.microsoft.com/azure/ai-foundry/openai/reference and
// .../openai/api-version-lifecycle): a deployment's chat completions at
// `/openai/deployments/{deployment}/chat/completions?api-version=2024-10-21` (the dated GA versions), or the
// version-less v1 API at `/openai/v1/chat/completions`, where the body's `model` names the deployment.

/** The latest dated GA data-plane version at the time of writing; AZURE_OPENAI_API_VERSION changes it. */
export const AZURE_DEFAULT_API_VERSION = "2024-10-21";

/**
 * The base an account's Azure credential gets when the gateway has no AZURE_OPENAI_BASE_URL: a reserved
 * `.invalid` name that never resolves. The adapter refuses to send a bare key there; an account's JSON
 * credential names its own resource instead.
 */
export const AZURE_NO_BASE = "https://azure-endpoint-required.invalid";

/** `v1` selects the v1 API (no api-version query). */
export const AZURE_V1 = "v1";

const API_VERSION = /^(v1|\d{4}-\d{2}-\d{2}(-preview)?)$/;

export function isAzureApiVersion(value: string): boolean {
  return API_VERSION.test(value);
}

export interface AzureOptions {
  readonly apiVersion: string;
  /** Model name (the endpoint's upstream model) → the operator's deployment name. */
  readonly deployments: Readonly<Record<string, string>>;
}

/** The deployment serving a model: the configured one, else a deployment named after the model. */
export function azureDeployment(upstreamModel: string, options: AzureOptions): string {
  return options.deployments[upstreamModel] ?? upstreamModel;
}

export function azureChatPath(deployment: string, apiVersion: string): string {
  if (apiVersion === AZURE_V1) return "/openai/v1/chat/completions";
  return `/openai/deployments/${encodeURIComponent(deployment)}/chat/completions?api-version=${encodeURIComponent(apiVersion)}`;
}
