/**
 * An Azure OpenAI credential. Azure takes a resource key in the `api-key` header or a Microsoft Entra ID
 * access token as `Authorization: Bearer` (learn.microsoft.com/azure/ai-foundry/openai/reference,
 * "Authentication"). An Entra token is a JWT (three base64url parts, the header starting `eyJ`); a resource
 * key is not, so the credential's shape says which header it goes in.
 *
 * An account's own (BYOK) credential may also name its resource, as JSON:
 * `{"endpoint": "https://<resource>.openai.azure.com", "api_key": "..."}` (or `"entra_token"`), since an
 * account's key is useless at the gateway's resource. The endpoint must be an Azure OpenAI host, so an
 * account cannot point the gateway at an address of its choosing.
 */
export type AzureCredential =
  | { readonly kind: "api-key"; readonly key: string; readonly endpoint: string | undefined }
  | { readonly kind: "entra"; readonly token: string; readonly endpoint: string | undefined };

const JWT = /^eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;
const KEY = /^[\x21-\x7e]+$/;
const AZURE_HOST =
  /^[a-z0-9][a-z0-9-]{0,62}\.(openai\.azure\.com|cognitiveservices\.azure\.com|services\.ai\.azure\.com)$/;

export function parseAzureCredential(text: string): AzureCredential | { problem: string } {
  const trimmed = text.trim();
  if (trimmed === "") return { problem: "must not be empty" };
  if (!trimmed.startsWith("{")) return bare(trimmed, undefined);
  let json: unknown;
  try {
    json = JSON.parse(trimmed);
  } catch {
    return { problem: "is not valid JSON" };
  }
  const record = typeof json === "object" && json !== null ? (json as Record<string, unknown>) : {};
  const endpoint = typeof record.endpoint === "string" ? azureEndpoint(record.endpoint) : undefined;
  if (endpoint === undefined)
    return {
      problem: "endpoint must be https://<resource>.openai.azure.com (or cognitiveservices.azure.com)",
    };
  if (typeof record.api_key === "string") return bare(record.api_key, endpoint, "api-key");
  if (typeof record.entra_token === "string") return bare(record.entra_token, endpoint, "entra");
  return { problem: "needs api_key or entra_token" };
}

function bare(
  secret: string,
  endpoint: string | undefined,
  kind?: AzureCredential["kind"],
): AzureCredential | { problem: string } {
  if (!KEY.test(secret)) return { problem: "must be printable ASCII without spaces" };
  const entra = kind === undefined ? JWT.test(secret) : kind === "entra";
  return entra ? { kind: "entra", token: secret, endpoint } : { kind: "api-key", key: secret, endpoint };
}

function azureEndpoint(value: string): string | undefined {
  try {
    const url = new URL(value);
    if (url.protocol !== "https:" || !AZURE_HOST.test(url.hostname) || url.port !== "") return undefined;
    return url.origin;
  } catch {
    return undefined;
  }
}
