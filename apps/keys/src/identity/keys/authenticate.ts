import { usdToPico } from "@gw/money";
import {
  type AuthenticateResponse,
  AuthFailureReason,
  KeyType,
  LimitReset,
  type Principal,
  type StringList,
} from "@gw/proto/keys/v1/keys";
import type { Kysely } from "kysely";
import type { KeysTables, LimitResetColumn } from "../../db/schema.js";
import { findAccount } from "../repositories/accounts.js";
import { type ApiKeyRow, findLiveKey } from "../repositories/api-keys.js";

/**
 * How long an edge may trust a positive answer. Key-change events invalidate sooner; this bounds the
 * damage of a lost event.
 */
export const AUTH_CACHE_TTL_MS = 5_000;

const HASH = /^[0-9a-f]{64}$/;

const LIMIT_RESETS: Record<LimitResetColumn, LimitReset> = {
  daily: LimitReset.LIMIT_RESET_DAILY,
  weekly: LimitReset.LIMIT_RESET_WEEKLY,
  monthly: LimitReset.LIMIT_RESET_MONTHLY,
};

/** KeyService.Authenticate: key hash → principal, or why there is none (deleted keys are not found). */
export async function authenticateKey(
  db: Kysely<KeysTables>,
  keyHash: string,
  now: Date = new Date(),
): Promise<AuthenticateResponse> {
  if (!HASH.test(keyHash)) return failure(AuthFailureReason.AUTH_FAILURE_REASON_KEY_NOT_FOUND);
  const row = await findLiveKey(db, keyHash);
  if (!row) return failure(AuthFailureReason.AUTH_FAILURE_REASON_KEY_NOT_FOUND);
  if (row.disabled) return failure(AuthFailureReason.AUTH_FAILURE_REASON_KEY_DISABLED);
  if (row.expires_at && row.expires_at.getTime() <= now.getTime()) {
    return failure(AuthFailureReason.AUTH_FAILURE_REASON_KEY_EXPIRED);
  }
  const account = await findAccount(db, row.account_id);
  if (!account) return failure(AuthFailureReason.AUTH_FAILURE_REASON_KEY_NOT_FOUND);
  const principal = toPrincipal(row, {
    providers: account.allowed_providers,
    models: account.allowed_models,
  });
  return { result: { $case: "principal", value: principal }, cacheTtlMs: AUTH_CACHE_TTL_MS };
}

function failure(reason: AuthFailureReason): AuthenticateResponse {
  // Failures are cached by the caller's own (short) negative TTL; no positive TTL applies.
  return { result: { $case: "failure", value: reason }, cacheTtlMs: 0 };
}

interface TenantScope {
  providers: string[] | null;
  models: string[] | null;
}

export function toPrincipal(row: ApiKeyRow, scope: TenantScope): Principal {
  const principal: Principal = {
    accountId: row.account_id,
    keyHash: row.hash,
    keyType: row.key_type === "management" ? KeyType.KEY_TYPE_MANAGEMENT : KeyType.KEY_TYPE_REGULAR,
    name: row.name,
    label: row.label,
    disabled: row.disabled,
    limitReset: row.limit_reset ? LIMIT_RESETS[row.limit_reset] : LimitReset.LIMIT_RESET_UNSPECIFIED,
    includeByokInLimit: row.include_byok_in_limit,
    createdAt: row.created_at,
  };
  if (row.expires_at) principal.expiresAt = row.expires_at;
  if (row.wallet_token_version !== null) principal.walletTokenVersion = row.wallet_token_version;
  if (row.limit !== null) principal.limitPico = usdToPico(row.limit);
  const providers = narrow(scope.providers, row.allowed_providers);
  const models = narrow(scope.models, row.allowed_models);
  if (providers) principal.allowedProviders = providers;
  if (models) principal.allowedModels = models;
  return principal;
}

/**
 * The effective allow-list is the key's list inside the tenant's scope (null = unrestricted), so an
 * account whose scope shrinks after a key was created never lets that key exceed it.
 */
export function narrow(tenant: string[] | null, key: string[] | null): StringList | undefined {
  if (tenant === null && key === null) return undefined;
  if (tenant === null) return { values: [...(key ?? [])] };
  if (key === null) return { values: [...tenant] };
  const allowed = new Set(tenant);
  return { values: key.filter((value) => allowed.has(value)) };
}
