import { GatewayError } from "@gw/errors";
import type { EventPublisher } from "@gw/events";
import { byokSecret } from "@gw/http";
import type { Kysely } from "kysely";
import { unknownProviderIds } from "../../catalog/read.js";
import type { KeysTables } from "../../db/schema.js";
import { assertWithinScope } from "../keys/catalog-refs.js";
import { publishKeyChange } from "../keys/changes.js";
import { findAccount } from "../repositories/accounts.js";
import {
  type CredentialChanges,
  type CredentialRow,
  deleteCredential,
  findCredential,
  findCredentialForProvider,
  insertCredential,
  listCredentials,
  newCredentialId,
  updateCredential,
} from "../repositories/provider-credentials.js";
import { associatedData, type CredentialCipher } from "./cipher.js";
import { providerKeyLabel } from "./provider-key.js";
import type { CreateCredentialBody, UpdateCredentialBody } from "./schemas.js";

/** What BYOK needs: the tables, the cipher (absent when no master key is configured), the change feed. */
export interface ByokStore {
  db: Kysely<KeysTables>;
  cipher: CredentialCipher | undefined;
  publisher: EventPublisher;
  keyChangesTopic: string;
}

export interface DecryptedCredential {
  id: string;
  providerId: string;
  apiKey: string;
  position: number;
}

export async function addCredential(
  store: ByokStore,
  accountId: string,
  body: CreateCredentialBody,
): Promise<CredentialRow> {
  const cipher = requireCipher(store);
  await assertUsableProvider(store.db, accountId, body.provider);
  const key = checkedSecret(body.provider, body.key);
  if (await findCredentialForProvider(store.db, accountId, body.provider)) throw duplicate(body.provider);
  const sealed = cipher.seal(key, associatedData(accountId, body.provider));
  const row = await insertCredential(store.db, {
    id: newCredentialId(),
    account_id: accountId,
    provider_id: body.provider,
    name: body.name ?? body.provider,
    label: providerKeyLabel(body.provider, key),
    disabled: body.disabled ?? false,
    key_id: sealed.keyId,
    iv: sealed.iv,
    auth_tag: sealed.authTag,
    ciphertext: sealed.ciphertext,
  }).catch((error: unknown) => {
    // A concurrent POST for the same provider won the unique index: the same answer as the check above.
    throw isUniqueViolation(error) ? duplicate(body.provider) : error;
  });
  announce(store, accountId);
  return row;
}

/**
 * Renames, re-keys, switches and/or moves a credential; a move shifts the others so positions stay
 * 0..n-1. Anything that changes what an edge would use is announced.
 */
export async function changeCredential(
  store: ByokStore,
  accountId: string,
  id: string,
  body: UpdateCredentialBody,
): Promise<CredentialRow> {
  const cipher = requireCipher(store);
  const position = body.position ?? body.sort_order;
  const row = await store.db.transaction().execute(async (trx) => {
    const existing = await findCredential(trx, accountId, id);
    if (!existing) throw credentialNotFound();
    const changes: CredentialChanges = {};
    if (body.name !== undefined) changes.name = body.name ?? existing.provider_id;
    if (body.disabled !== undefined) changes.disabled = body.disabled;
    if (body.key !== undefined) {
      const key = checkedSecret(existing.provider_id, body.key);
      const sealed = cipher.seal(key, associatedData(accountId, existing.provider_id));
      changes.label = providerKeyLabel(existing.provider_id, key);
      changes.key_id = sealed.keyId;
      changes.iv = sealed.iv;
      changes.auth_tag = sealed.authTag;
      changes.ciphertext = sealed.ciphertext;
    }
    if (Object.keys(changes).length > 0) await updateCredential(trx, accountId, id, changes);
    if (position !== undefined) await move(trx, accountId, id, position);
    return findCredential(trx, accountId, id);
  });
  if (!row) throw credentialNotFound();
  if (position !== undefined || body.disabled !== undefined || body.key !== undefined)
    announce(store, accountId);
  return row;
}

export async function removeCredential(store: ByokStore, accountId: string, id: string): Promise<void> {
  requireCipher(store);
  const row = await deleteCredential(store.db, accountId, id);
  if (!row) throw credentialNotFound();
  announce(store, accountId);
}

/** For KeyService.GetProviderCredentials; an unconfigured gateway simply has no BYOK keys to offer. */
export async function decryptedCredentials(
  store: ByokStore,
  accountId: string,
): Promise<DecryptedCredential[]> {
  const { cipher } = store;
  if (!cipher) return [];
  const rows = (await listCredentials(store.db, accountId)).filter((row) => !row.disabled);
  return rows.map((row) => ({
    id: row.id,
    providerId: row.provider_id,
    apiKey: cipher.open(
      { keyId: row.key_id, iv: row.iv, authTag: row.auth_tag, ciphertext: row.ciphertext },
      associatedData(row.account_id, row.provider_id),
    ),
    position: row.position,
  }));
}

async function move(db: Kysely<KeysTables>, accountId: string, id: string, position: number): Promise<void> {
  const ids = (await listCredentials(db, accountId)).map((row) => row.id).filter((other) => other !== id);
  ids.splice(Math.min(position, ids.length), 0, id);
  for (const [index, credentialId] of ids.entries()) {
    await updateCredential(db, accountId, credentialId, { position: index });
  }
}

async function assertUsableProvider(db: Kysely<KeysTables>, accountId: string, providerId: string) {
  if ((await unknownProviderIds(db, [providerId])).length > 0) {
    throw invalid("provider", `unknown provider: ${providerId}`);
  }
  const account = await findAccount(db, accountId);
  assertWithinScope(
    { providers: account?.allowed_providers ?? null, models: null },
    { allowedProviders: [providerId] },
  );
}

/** Edges drop the account's cached credentials; the key hash is empty because no key changed. */
function announce(store: ByokStore, accountId: string): void {
  publishKeyChange(store.publisher, store.keyChangesTopic, {
    keyHash: "",
    accountId,
    change: "byok_changed",
  });
}

function duplicate(provider: string): GatewayError {
  return invalid("provider", `this account already has a key for ${provider}; delete it first`);
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "23505";
}

function requireCipher(store: ByokStore): CredentialCipher {
  if (store.cipher) return store.cipher;
  throw new GatewayError("service_unavailable", "BYOK is not configured on this gateway (BYOK_MASTER_KEY)", {
    code: "byok_not_configured",
  });
}

/** The provider's own shape (an API key, a Vertex key file, an Azure credential), minified; else a 400. */
function checkedSecret(providerId: string, key: string): string {
  const checked = byokSecret(providerId, key);
  if ("problem" in checked) throw invalid("key", checked.problem);
  return checked.secret;
}

function invalid(field: string, message: string): GatewayError {
  return new GatewayError("invalid_request", `${field}: ${message}`, {
    code: "invalid_request",
    metadata: { field },
  });
}

export function credentialNotFound(): GatewayError {
  return new GatewayError("not_found", "provider credential not found", { code: "credential_not_found" });
}
