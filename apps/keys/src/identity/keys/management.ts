import { GatewayError } from "@gw/errors";
import type { EventPublisher } from "@gw/events";
import type { Kysely } from "kysely";
import type { KeysTables } from "../../db/schema.js";
import { type ApiKeyRow, insertApiKey } from "../repositories/api-keys.js";
import {
  deleteManagementKey,
  findManagementKey,
  lockAccount,
  otherUsableManagementKeys,
} from "../repositories/management-keys.js";
import { publishKeyChange } from "./changes.js";
import { generateSecret } from "./secrets.js";

/** Where a change is announced; the operator CLI without a broker has none (see announceGone). */
export interface KeyChangeFeed {
  publisher: EventPublisher;
  keyChangesTopic: string;
}

// Revoking and rotating an account's management keys (the API's /api/v1/management-keys and the
// operator CLI). Both end a secret: the key-change event tells every edge (and every app that caches
// principals) to forget it, exactly as for a deleted API key.

export interface RevokeOptions {
  /**
   * Lets the last usable management key go (the operator CLI's --allow-last). The API never sets it:
   * an account left without a usable management key can only get one back from the operator.
   */
  allowLast?: boolean;
}

export interface RotatedKey {
  /** The new plaintext secret: handed out once, never stored or logged. */
  secret: string;
  row: ApiKeyRow;
  /** The hash of the key it replaced, which no longer authenticates. */
  replaced: string;
}

/** Revokes (soft-deletes) one of the account's management keys; another account's key is a 404. */
export async function revokeManagementKey(
  db: Kysely<KeysTables>,
  feed: KeyChangeFeed | undefined,
  target: { accountId: string; hash: string },
  options: RevokeOptions = {},
): Promise<ApiKeyRow> {
  const { accountId, hash } = target;
  const row = await db.transaction().execute(async (trx) => {
    await lockAccount(trx, accountId);
    const existing = await findManagementKey(trx, accountId, hash);
    if (!existing) throw managementKeyNotFound();
    if (!options.allowLast && (await otherUsableManagementKeys(trx, accountId, hash)) === 0) {
      throw lastManagementKey();
    }
    const deleted = await deleteManagementKey(trx, accountId, hash);
    if (!deleted) throw managementKeyNotFound();
    return deleted;
  });
  announceGone(feed, row);
  return row;
}

/**
 * Replaces a management key's secret: a new key with the old one's name and state (disabled, expiry)
 * is created and the old one revoked in one transaction, so the account never has neither.
 */
export async function rotateManagementKey(
  db: Kysely<KeysTables>,
  feed: KeyChangeFeed | undefined,
  target: { accountId: string; hash: string },
  rotatedBy: string | null,
): Promise<RotatedKey> {
  const { accountId, hash } = target;
  const rotated = await db.transaction().execute(async (trx) => {
    await lockAccount(trx, accountId);
    const old = await deleteManagementKey(trx, accountId, hash);
    if (!old) throw managementKeyNotFound();
    return replacementOf(trx, old, rotatedBy);
  });
  announceGone(feed, { hash: rotated.replaced, account_id: accountId });
  return rotated;
}

async function replacementOf(
  db: Kysely<KeysTables>,
  old: ApiKeyRow,
  rotatedBy: string | null,
): Promise<RotatedKey> {
  const { secret, hash, label } = generateSecret("management");
  const row = await insertApiKey(db, {
    hash,
    account_id: old.account_id,
    key_type: "management",
    name: old.name,
    label,
    disabled: old.disabled,
    limit: old.limit,
    limit_reset: old.limit_reset,
    allowed_providers: old.allowed_providers,
    allowed_models: old.allowed_models,
    include_byok_in_limit: old.include_byok_in_limit,
    expires_at: old.expires_at,
    // Who rotated it (a key rotating itself names its own old hash); null for the operator.
    created_by: rotatedBy,
  });
  return { secret, row, replaced: old.hash };
}

/**
 * Published only after the commit, so an edge that refetches at once reads the key as gone. Without a
 * feed (the CLI with no broker) the edges refuse the key when their cached principal lapses (seconds).
 */
function announceGone(feed: KeyChangeFeed | undefined, row: Pick<ApiKeyRow, "hash" | "account_id">): void {
  if (!feed) return;
  publishKeyChange(feed.publisher, feed.keyChangesTopic, {
    keyHash: row.hash,
    accountId: row.account_id,
    change: "deleted",
  });
}

function managementKeyNotFound(): GatewayError {
  return new GatewayError("not_found", "management key not found", { code: "key_not_found" });
}

function lastManagementKey(): GatewayError {
  return new GatewayError(
    "invalid_request",
    "this is the account's last usable management key: rotate it instead, or create another first",
    { code: "last_management_key" },
  );
}
