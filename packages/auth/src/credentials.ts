import { createHash } from "node:crypto";
import { GatewayError, MISSING_AUTH_MESSAGE } from "@gw/errors";

/** The request parts credentials can come from, whatever the web framework. */
export interface CredentialSource {
  headers: Record<string, string | string[] | undefined>;
  query?: Record<string, unknown>;
}

export type KeyKind = "management" | "regular";

export const KEY_PREFIXES: Record<KeyKind, string> = { management: "lr_mgmt_", regular: "lr_live_" };

/** sha256 hex of a secret: the only form in which keys are stored, cached, logged or sent between apps. */
export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

function header(source: CredentialSource, name: string): string | undefined {
  const value = source.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Finds the caller's secret, detecting the method in use: `Authorization: Bearer`, `X-Api-Key`,
 * `x-goog-api-key`, then the `key` query parameter. Returns undefined when none is present; throws the
 * spec's 401 when an Authorization header is there but malformed.
 */
export function extractSecret(source: CredentialSource): string | undefined {
  const authorization = header(source, "authorization");
  if (authorization !== undefined) {
    const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization);
    if (!match?.[1])
      throw new GatewayError("authentication", MISSING_AUTH_MESSAGE, { code: "missing_credentials" });
    return match[1];
  }
  const apiKey = header(source, "x-api-key") ?? header(source, "x-goog-api-key");
  if (apiKey) return apiKey.trim();
  const queryKey = source.query?.key;
  if (typeof queryKey === "string" && queryKey.length > 0) return queryKey;
  return undefined;
}

export function requireSecret(source: CredentialSource): string {
  const secret = extractSecret(source);
  if (!secret)
    throw new GatewayError("authentication", MISSING_AUTH_MESSAGE, { code: "missing_credentials" });
  return secret;
}

/** lr_mgmt_/lr_live_ followed by 48 lowercase hex characters (24 random bytes). */
export function looksLikeServiceKey(secret: string): boolean {
  return /^lr_(mgmt|live)_[0-9a-f]{48}$/.test(secret);
}
