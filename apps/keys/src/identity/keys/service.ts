import { GatewayError } from "@gw/errors";
import type { EventPublisher } from "@gw/events";
import { picoToDecimalString } from "@gw/money";
import type { Kysely } from "kysely";
import type { KeysTables, KeyTypeColumn } from "../../db/schema.js";
import {
  type ApiKeyChanges,
  type ApiKeyRow,
  deleteManagedKey,
  findManagedKey,
  insertApiKey,
  updateManagedKey,
} from "../repositories/api-keys.js";
import { assertAllowLists } from "./catalog-refs.js";
import { changeKindOf, publishKeyChange } from "./changes.js";
import { generateSecret } from "./secrets.js";
import type { KeyPatch, KeySettings } from "./settings.js";

/** What key operations need: the tables, and where to announce changes that affect authentication. */
export interface KeyStore {
  db: Kysely<KeysTables>;
  publisher: EventPublisher;
  keyChangesTopic: string;
}

export interface CreateKeyInput {
  accountId: string;
  settings: KeySettings;
  keyType?: KeyTypeColumn;
  /** Hash of the management key making the call; absent for operator-created keys. */
  createdBy?: string | null;
}

export interface CreatedKey {
  /** The plaintext secret: hand it to the caller once, never store or log it. */
  secret: string;
  row: ApiKeyRow;
}

/** Validates and stores a new key. A new key changes no existing authentication answer: no event. */
export async function createKey(db: Kysely<KeysTables>, input: CreateKeyInput): Promise<CreatedKey> {
  await assertAllowLists(db, input.accountId, input.settings);
  const keyType = input.keyType ?? "regular";
  const { secret, hash, label } = generateSecret(keyType);
  const { settings } = input;
  const row = await insertApiKey(db, {
    hash,
    account_id: input.accountId,
    key_type: keyType,
    name: settings.name,
    label,
    limit: settings.limitPico === null ? null : picoToDecimalString(settings.limitPico),
    limit_reset: settings.limitReset,
    allowed_providers: settings.allowedProviders,
    allowed_models: settings.allowedModels,
    include_byok_in_limit: settings.includeByokInLimit,
    expires_at: settings.expiresAt,
    created_by: input.createdBy ?? null,
  });
  return { secret, row };
}

export async function getManagedKey(
  db: Kysely<KeysTables>,
  accountId: string,
  hash: string,
): Promise<ApiKeyRow> {
  const row = await findManagedKey(db, accountId, hash);
  if (!row) throw keyNotFound();
  return row;
}

export async function updateKey(
  store: KeyStore,
  accountId: string,
  hash: string,
  patch: KeyPatch,
): Promise<ApiKeyRow> {
  await assertAllowLists(store.db, accountId, patch);
  const changes = toChanges(patch);
  if (Object.keys(changes).length === 0) return getManagedKey(store.db, accountId, hash);
  const row = await updateManagedKey(store.db, accountId, hash, changes);
  if (!row) throw keyNotFound();
  publishKeyChange(store.publisher, store.keyChangesTopic, {
    keyHash: row.hash,
    accountId: row.account_id,
    change: changeKindOf(patch),
  });
  return row;
}

export async function deleteKey(store: KeyStore, accountId: string, hash: string): Promise<void> {
  const row = await deleteManagedKey(store.db, accountId, hash);
  if (!row) throw keyNotFound();
  publishKeyChange(store.publisher, store.keyChangesTopic, {
    keyHash: row.hash,
    accountId: row.account_id,
    change: "deleted",
  });
}

function toChanges(patch: KeyPatch): ApiKeyChanges {
  const changes: ApiKeyChanges = {};
  if (patch.name !== undefined) changes.name = patch.name;
  if (patch.disabled !== undefined) changes.disabled = patch.disabled;
  if (patch.limitPico !== undefined) {
    changes.limit = patch.limitPico === null ? null : picoToDecimalString(patch.limitPico);
  }
  if (patch.limitReset !== undefined) changes.limit_reset = patch.limitReset;
  if (patch.allowedProviders !== undefined) changes.allowed_providers = patch.allowedProviders;
  if (patch.allowedModels !== undefined) changes.allowed_models = patch.allowedModels;
  if (patch.includeByokInLimit !== undefined) changes.include_byok_in_limit = patch.includeByokInLimit;
  if (patch.expiresAt !== undefined) changes.expires_at = patch.expiresAt;
  return changes;
}

/** Unknown, deleted and other accounts' keys all look the same: never reveal that a key exists. */
export function keyNotFound(): GatewayError {
  return new GatewayError("not_found", "key not found", { code: "key_not_found" });
}
