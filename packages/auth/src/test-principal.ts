import { KeyType, LimitReset, type Principal } from "@gw/proto/keys/v1/keys";

/** A regular, unrestricted, enabled key of `acct_1`, for this package's tests; override what a test is about. */
export function testPrincipal(overrides: Partial<Principal> = {}): Principal {
  return {
    accountId: "acct_1",
    keyHash: "h".repeat(64),
    keyType: KeyType.KEY_TYPE_REGULAR,
    name: "k",
    label: "label",
    disabled: false,
    expiresAt: undefined,
    limitPico: undefined,
    limitReset: LimitReset.LIMIT_RESET_UNSPECIFIED,
    allowedProviders: undefined,
    allowedModels: undefined,
    includeByokInLimit: false,
    createdAt: new Date(0),
    ...overrides,
  };
}
