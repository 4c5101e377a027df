import { findProvider } from "@gw/catalog";
import { GatewayError } from "@gw/errors";
import { parseAwsCredential } from "@gw/http";
import { maskProviderKey } from "./cipher.js";

/**
 * The label shown for a stored provider key, after checking the key's shape where the provider's
 * credential is more than one string: an AWS credential for Bedrock is JSON (`parseAwsCredential`), so a
 * malformed one is the caller's 400 now rather than a failed call later, and its label masks the
 * access key id (a mask of the JSON text could end in characters of the secret).
 */
export function providerKeyLabel(providerId: string, key: string): string {
  if (findProvider(providerId)?.apiFormat !== "bedrock") return maskProviderKey(key);
  const parsed = parseAwsCredential(key);
  if (!parsed.ok)
    throw new GatewayError("invalid_request", `key: ${parsed.problem}`, {
      code: "invalid_request",
      metadata: { field: "key" },
    });
  return maskProviderKey(parsed.credential.accessKeyId);
}
