import type { Database } from "@gw/db";
import { GatewayError } from "@gw/errors";
import type { EventPublisher } from "@gw/events";
import { usdToPico } from "@gw/money";
import type { KeysTables, KeyTypeColumn, LimitResetColumn } from "../db/schema.js";
import { assertKnownCatalogRefs } from "./keys/catalog-refs.js";
import { publishKeyChange } from "./keys/changes.js";
import { revokeManagementKey, rotateManagementKey } from "./keys/management.js";
import { createKey } from "./keys/service.js";
import { DEFAULT_SETTINGS } from "./keys/settings.js";
import { findAccount, insertAccount, newAccountId, updateAccountScope } from "./repositories/accounts.js";
import { liveKeyHashes } from "./repositories/api-keys.js";
import { listManagementKeys } from "./repositories/management-keys.js";

// Operator functions: what the CLI (and tests) use to bootstrap tenants, bypassing the REST API.

export interface CreatedAccount {
  accountId: string;
  /** Plaintext management key: shown to the operator once. */
  managementKey: string;
  managementKeyHash: string;
}

/** Creates an account and its first management key in one transaction. */
export async function createAccount(
  database: Pick<Database<KeysTables>, "db">,
  input: { name: string },
): Promise<CreatedAccount> {
  return database.db.transaction().execute(async (trx) => {
    const account = await insertAccount(trx, { id: newAccountId(), name: input.name });
    const { secret, row } = await createKey(trx, {
      accountId: account.id,
      keyType: "management",
      settings: { ...DEFAULT_SETTINGS, name: `${input.name} management key` },
    });
    return { accountId: account.id, managementKey: secret, managementKeyHash: row.hash };
  });
}

export interface OperatorKeyInput {
  accountId: string;
  name: string;
  keyType?: KeyTypeColumn;
  /** USD, as a decimal string or number; null/absent = no cap. */
  limit?: string | number | null;
  limitReset?: LimitResetColumn | null;
  expiresAt?: Date | null;
  allowedProviders?: string[] | null;
  allowedModels?: string[] | null;
  includeByokInLimit?: boolean;
}

export async function createApiKey(
  database: Database<KeysTables>,
  input: OperatorKeyInput,
): Promise<{ key: string; hash: string }> {
  const account = await findAccount(database.db, input.accountId);
  if (!account) throw new GatewayError("not_found", `account ${input.accountId} not found`);
  const { secret, row } = await createKey(database.db, {
    accountId: account.id,
    keyType: input.keyType ?? "regular",
    settings: {
      name: input.name,
      limitPico: input.limit === undefined || input.limit === null ? null : usdToPico(input.limit),
      limitReset: input.limitReset ?? null,
      expiresAt: input.expiresAt ?? null,
      allowedProviders: input.allowedProviders ?? null,
      allowedModels: input.allowedModels ?? null,
      includeByokInLimit: input.includeByokInLimit ?? false,
    },
  });
  return { key: secret, hash: row.hash };
}

export interface AccountScopeInput {
  accountId: string;
  /** null = every provider / model the catalogue has. */
  allowedProviders: string[] | null;
  allowedModels: string[] | null;
}

/** Where the operator announces changes; without one, edges see them when cached principals lapse. */
export interface ChangeFeed {
  publisher: EventPublisher;
  keyChangesTopic: string;
}

/**
 * Sets the tenant's scope. Existing keys are narrowed at authentication time (never widened), so no key
 * row changes. With a change feed every live key of the account is announced, so edges drop their
 * cached principals at once; without one (no broker reachable) they pick the scope up when the cached
 * principals lapse (the keys app's positive cache TTL, a few seconds).
 */
export async function setAccountScope(
  database: Database<KeysTables>,
  input: AccountScopeInput,
  feed?: ChangeFeed,
): Promise<{ accountId: string; allowedProviders: string[] | null; allowedModels: string[] | null }> {
  await assertKnownCatalogRefs(database.db, input);
  const row = await updateAccountScope(database.db, input.accountId, {
    allowed_providers: input.allowedProviders,
    allowed_models: input.allowedModels,
  });
  if (!row) throw new GatewayError("not_found", `account ${input.accountId} not found`);
  if (feed) {
    for (const keyHash of await liveKeyHashes(database.db, row.id)) {
      publishKeyChange(feed.publisher, feed.keyChangesTopic, {
        keyHash,
        accountId: row.id,
        change: "updated",
      });
    }
  }
  return {
    accountId: row.id,
    allowedProviders: row.allowed_providers,
    allowedModels: row.allowed_models,
  };
}

/** A management key as the operator CLI lists it: never its secret, which is not stored. */
export interface ManagementKeySummary {
  hash: string;
  name: string;
  label: string;
  disabled: boolean;
  expires_at: string | null;
  created_at: string;
}

export async function listAccountManagementKeys(
  database: Database<KeysTables>,
  accountId: string,
): Promise<ManagementKeySummary[]> {
  const account = await findAccount(database.db, accountId);
  if (!account) throw new GatewayError("not_found", `account ${accountId} not found`);
  const rows = await listManagementKeys(database.db, account.id);
  return rows.map((row) => ({
    hash: row.hash,
    name: row.name,
    label: row.label,
    disabled: row.disabled,
    expires_at: row.expires_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
  }));
}

/**
 * Revokes a management key as the operator. Like the API it refuses the account's last usable one,
 * unless `allowLast` (the operator can always create a new one with `gw keys create --management`).
 */
export async function revokeAccountManagementKey(
  database: Database<KeysTables>,
  input: { accountId: string; hash: string; allowLast?: boolean },
  feed?: ChangeFeed,
): Promise<{ account_id: string; hash: string; revoked: true }> {
  const row = await revokeManagementKey(
    database.db,
    feed,
    { accountId: input.accountId, hash: input.hash },
    { allowLast: input.allowLast === true },
  );
  return { account_id: row.account_id, hash: row.hash, revoked: true };
}

/** Rotates a management key as the operator: the new secret is returned once; only its hash is kept. */
export async function rotateAccountManagementKey(
  database: Database<KeysTables>,
  input: { accountId: string; hash: string },
  feed?: ChangeFeed,
): Promise<{ account_id: string; key: string; hash: string; replaced: string }> {
  const rotated = await rotateManagementKey(database.db, feed, input, null);
  return {
    account_id: input.accountId,
    key: rotated.secret,
    hash: rotated.row.hash,
    replaced: rotated.replaced,
  };
}
