import { GatewayError } from "@gw/errors";
import { parseAwsCredential, parseAzureCredential, parseVertexCredential } from "@gw/http";
import { maskProviderKey } from "./cipher.js";

/**
 * The label shown for a stored provider key (already checked by `byokSecret`). A credential that is JSON
 * (Bedrock's AWS credential, a Vertex service-account key file, an Azure credential naming its resource)
 * is labelled by a part that is not secret — the access key id, the service account's e-mail, the key's
 * masked value — because a mask of the JSON text could end in characters of the secret.
 */
export function providerKeyLabel(providerId: string, key: string): string {
  if (providerId === "amazon-bedrock") {
    // byokSecret has checked it on the way in; checked again so a label is never made of an unchecked secret.
    const parsed = parseAwsCredential(key);
    if (!parsed.ok)
      throw new GatewayError("invalid_request", `key: ${parsed.problem}`, {
        code: "invalid_request",
        metadata: { field: "key" },
      });
    return maskProviderKey(parsed.credential.accessKeyId);
  }
  if (!key.startsWith("{")) return maskProviderKey(key);
  if (providerId === "google-vertex") {
    const parsed = parseVertexCredential(key);
    if ("kind" in parsed && parsed.kind === "service-account") return parsed.account.clientEmail;
  }
  if (providerId === "azure") {
    const parsed = parseAzureCredential(key);
    if ("kind" in parsed) return maskProviderKey(parsed.kind === "api-key" ? parsed.key : parsed.token);
  }
  return maskProviderKey(key);
}
