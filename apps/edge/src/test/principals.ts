import { hashSecret, PrincipalResolver } from "@gw/auth";
import {
  type AuthenticateResponse,
  AuthFailureReason,
  KeyType,
  LimitReset,
  type Principal,
} from "@gw/proto/keys/v1/keys";

/** A key as the keys app would hold it: the secret the client sends and the principal it resolves to. */
export interface TestKey {
  secret: string;
  principal: Principal;
}

let counter = 0;

export function testKey(
  accountId: string,
  overrides: Partial<Principal> & { management?: boolean } = {},
): TestKey {
  const { management = false, ...fields } = overrides;
  counter++;
  const secret = `${management ? "lr_mgmt_" : "lr_live_"}${counter.toString(16).padStart(48, "0")}`;
  return {
    secret,
    principal: {
      accountId,
      keyHash: hashSecret(secret),
      keyType: management ? KeyType.KEY_TYPE_MANAGEMENT : KeyType.KEY_TYPE_REGULAR,
      name: `key ${counter}`,
      label: `${secret.slice(0, 11)}...${secret.slice(-4)}`,
      disabled: false,
      expiresAt: undefined,
      limitPico: undefined,
      limitReset: LimitReset.LIMIT_RESET_UNSPECIFIED,
      allowedProviders: undefined,
      allowedModels: undefined,
      includeByokInLimit: false,
      createdAt: new Date("2026-01-01T00:00:00Z"),
      ...fields,
    },
  };
}

/** KeyService.Authenticate over a fixed set of keys, as the keys app answers it. */
export function authenticateFrom(keys: readonly TestKey[], cacheTtlMs = 5_000) {
  return async ({ keyHash }: { keyHash: string }): Promise<AuthenticateResponse> => {
    const key = keys.find((candidate) => candidate.principal.keyHash === keyHash);
    if (!key) {
      return {
        result: { $case: "failure", value: AuthFailureReason.AUTH_FAILURE_REASON_KEY_NOT_FOUND },
        cacheTtlMs: 0,
      };
    }
    return { result: { $case: "principal", value: key.principal }, cacheTtlMs };
  };
}

export function resolverFor(keys: readonly TestKey[]): PrincipalResolver {
  return new PrincipalResolver(authenticateFrom(keys));
}
