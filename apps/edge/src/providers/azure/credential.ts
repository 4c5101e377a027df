import type { AzureCredential } from "@gw/http";

export { type AzureCredential, parseAzureCredential } from "@gw/http";

export function azureAuthHeaders(credential: AzureCredential): Record<string, string> {
  return credential.kind === "entra"
    ? { authorization: `Bearer ${credential.token}` }
    : { "api-key": credential.key };
}
