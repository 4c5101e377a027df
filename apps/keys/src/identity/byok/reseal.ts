import type { Kysely } from "kysely";
import { sql } from "kysely";
import type { KeysTables } from "../../db/schema.js";
import { associatedData, type CredentialCipher } from "./cipher.js";

export interface ResealOptions {
  /** Rows read and rewritten per round trip. */
  batchSize?: number;
  /** Stops between rows (the app shutting down); a later pass resumes where this one stopped. */
  signal?: AbortSignal;
}

export interface ResealResult {
  /** Rows this pass rewrote under the current key. */
  resealed: number;
  /** Rows changed or deleted by someone else between read and write: left as the other writer left them. */
  skipped: number;
  /** Rows no held key opens (named by id, never any part of the secret). */
  failed: { id: string; reason: string }[];
  /** Rows not yet under the current key once the pass ends (0 = the previous key can go). */
  remaining: number;
}

/**
 * Moves every BYOK credential not sealed under the current key to it. Resumable and safe to run on
 * several replicas at once and beside the routes' writes, because all its progress is in the rows: it
 * reads rows whose key id is not the current one, and writes each back only if its IV is still the one
 * it read (the IV is random per seal, so any other write in between — a re-key through the API, another
 * replica's pass — changes it and this write matches nothing). The row's `updated_at` is left alone: the
 * account changed nothing.
 */
export async function resealCredentials(
  db: Kysely<KeysTables>,
  cipher: CredentialCipher,
  options: ResealOptions = {},
): Promise<ResealResult> {
  const batchSize = options.batchSize ?? 100;
  const result: ResealResult = { resealed: 0, skipped: 0, failed: [], remaining: 0 };
  let after = "";
  for (;;) {
    const rows = await staleRows(db, cipher.currentKeyId, after, batchSize);
    for (const row of rows) {
      if (options.signal?.aborted) return { ...result, remaining: await countStale(db, cipher) };
      await resealRow(db, cipher, row, result);
    }
    if (rows.length < batchSize) break;
    after = rows[rows.length - 1]?.id ?? after;
  }
  return { ...result, remaining: await countStale(db, cipher) };
}

/** How many rows are sealed under a key other than the current one (or under no recorded key). */
export async function countStale(db: Kysely<KeysTables>, cipher: CredentialCipher): Promise<number> {
  const row = await db
    .selectFrom("provider_credentials")
    .select(sql<string>`count(*)`.as("stale"))
    .where((where) => where.or([where("key_id", "is", null), where("key_id", "!=", cipher.currentKeyId)]))
    .executeTakeFirstOrThrow();
  return Number(row.stale);
}

function staleRows(db: Kysely<KeysTables>, currentKeyId: string, after: string, limit: number) {
  return db
    .selectFrom("provider_credentials")
    .select(["id", "account_id", "provider_id", "key_id", "iv", "auth_tag", "ciphertext"])
    .where((where) => where.or([where("key_id", "is", null), where("key_id", "!=", currentKeyId)]))
    .where("id", ">", after)
    .orderBy("id")
    .limit(limit)
    .execute();
}

type StaleRow = Awaited<ReturnType<typeof staleRows>>[number];

async function resealRow(
  db: Kysely<KeysTables>,
  cipher: CredentialCipher,
  row: StaleRow,
  result: ResealResult,
): Promise<void> {
  const associated = associatedData(row.account_id, row.provider_id);
  let secret: string;
  try {
    secret = cipher.open(
      { keyId: row.key_id, iv: row.iv, authTag: row.auth_tag, ciphertext: row.ciphertext },
      associated,
    );
  } catch (error) {
    result.failed.push({ id: row.id, reason: error instanceof Error ? error.message : String(error) });
    return;
  }
  const sealed = cipher.seal(secret, associated);
  const written = await db
    .updateTable("provider_credentials")
    .set({ key_id: sealed.keyId, iv: sealed.iv, auth_tag: sealed.authTag, ciphertext: sealed.ciphertext })
    .where("id", "=", row.id)
    .where("iv", "=", row.iv)
    .executeTakeFirst();
  if (written.numUpdatedRows > 0n) result.resealed += 1;
  else result.skipped += 1;
}
