/**
 * Amazon Bedrock Runtime's paths (API reference: InvokeModel `POST /model/{modelId}/invoke`,
 * InvokeModelWithResponseStream `…/invoke-with-response-stream`, Converse `…/converse`, ConverseStream
 * `…/converse-stream`). The model id is a path segment and may be an ARN, so it is percent-encoded
 * (`anthropic.claude-sonnet-4-20250514-v1:0` → `…-v1%3A0`).
 */
export type BedrockOperation = "invoke" | "invoke-with-response-stream" | "converse" | "converse-stream";

export function operationPath(modelId: string, operation: BedrockOperation): string {
  return `/model/${encodeURIComponent(modelId)}/${operation}`;
}

/** The Messages body's version field Bedrock requires for Anthropic models (Anthropic's Bedrock docs). */
export const BEDROCK_ANTHROPIC_VERSION = "bedrock-2023-05-31";

/** SigV4's service name for the runtime API (its endpoint host is `bedrock-runtime`, its signing name is not). */
export const SIGNING_SERVICE = "bedrock";

export const DEFAULT_REGION = "us-east-1";

/**
 * Claude is served through InvokeModel with Anthropic's own body; every other model through Converse.
 * The id may be a foundation model (`anthropic.claude-…`), a cross-region inference profile
 * (`us.anthropic.claude-…`, `global.anthropic.…`) or an ARN ending in either.
 */
export function isAnthropicModel(modelId: string): boolean {
  const name = modelId.slice(modelId.lastIndexOf("/") + 1);
  return /^([a-z]{2,6}\.)?anthropic\./.test(name);
}

/**
 * The region a call goes to: an ARN's own (`arn:aws:bedrock:eu-west-1:…`, how an operator's catalogue
 * override pins an endpoint to a deployment's region), else the credential's or the gateway's default.
 */
export function regionOf(modelId: string, fallback: string): string {
  const match = /^arn:aws[a-z-]*:bedrock:([a-z0-9-]+):/.exec(modelId);
  return match?.[1] ?? fallback;
}

/** The runtime endpoint of a region; `{region}` in a configured base URL is replaced the same way. */
export function regionalBaseUrl(baseUrl: string, region: string): string {
  return baseUrl.replaceAll("{region}", region);
}
