import { GatewayError, INVALID_KEY_MESSAGE } from "@gw/errors";
import { KeyType, type Principal } from "@gw/proto/keys/v1/keys";

export type { Principal };

export type AuthFailureCode = "key_not_found" | "key_disabled" | "key_expired";

export function invalidKey(code: AuthFailureCode): GatewayError {
  return new GatewayError("authentication", INVALID_KEY_MESSAGE, { code });
}

/**
 * State checks run on every request against the cached principal, so expiry takes effect at
 * `expires_at` exactly rather than when a cache entry happens to lapse.
 */
export function assertUsable(principal: Principal, now: Date = new Date()): Principal {
  if (principal.disabled) throw invalidKey("key_disabled");
  if (principal.expiresAt && principal.expiresAt.getTime() <= now.getTime()) throw invalidKey("key_expired");
  return principal;
}

export function isManagementKey(principal: Principal): boolean {
  return principal.keyType === KeyType.KEY_TYPE_MANAGEMENT;
}

/** Management keys manage keys and cannot call inference; API keys the other way round. */
export function requireKeyType(principal: Principal, kind: "management" | "regular"): Principal {
  const isManagement = isManagementKey(principal);
  if (kind === "management" && !isManagement) {
    throw new GatewayError("permission", "this route requires a management key", {
      code: "management_key_required",
    });
  }
  if (kind === "regular" && isManagement) {
    throw new GatewayError("permission", "management keys cannot call inference routes; use an API key", {
      code: "api_key_required",
    });
  }
  return principal;
}
