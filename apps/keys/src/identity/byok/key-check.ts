import { ConfigError } from "@gw/config";
import type { Kysely } from "kysely";
import { sql } from "kysely";
import type { KeysTables } from "../../db/schema.js";
import { associatedData, type CredentialCipher } from "./cipher.js";

export interface StoredKeys {
  /** Rows per key id (`null`: sealed before key ids were stored). */
  byKeyId: Map<string | null, number>;
  /** Rows not under the current key. */
  stale: number;
}

/**
 * Refuses to start with master keys that cannot open what is stored: a row under a key id neither key
 * has, or (for rows sealed before ids were stored) a sample row that no held key opens. Without this a
 * mistyped BYOK_MASTER_KEY would start fine and fail every BYOK request of every account that has keys.
 */
export async function assertStoredKeysOpen(
  db: Kysely<KeysTables>,
  cipher: CredentialCipher,
): Promise<StoredKeys> {
  const counts = await db
    .selectFrom("provider_credentials")
    .select(["key_id", sql<string>`count(*)`.as("rows")])
    .groupBy("key_id")
    .execute();
  const byKeyId = new Map(counts.map((row) => [row.key_id, Number(row.rows)]));
  const problems: string[] = [];
  for (const [keyId, rows] of byKeyId) {
    if (keyId !== null && !cipher.holds(keyId))
      problems.push(`${rows} BYOK credential(s) are sealed under key ${keyId}, which is not held`);
  }
  if (byKeyId.has(null) && !(await legacySampleOpens(db, cipher)))
    problems.push("BYOK credentials sealed before key ids were stored open with none of the keys held");
  if (problems.length > 0)
    throw new ConfigError([
      `BYOK_MASTER_KEY: ${problems.join("; ")} (held: ${cipher.keyIds.join(", ")}). ` +
        "Set the key they were sealed with as BYOK_MASTER_KEY (or as BYOK_MASTER_KEY_PREVIOUS during a rotation)",
    ]);
  let stale = 0;
  for (const [keyId, rows] of byKeyId) if (keyId !== cipher.currentKeyId) stale += rows;
  return { byKeyId, stale };
}

async function legacySampleOpens(db: Kysely<KeysTables>, cipher: CredentialCipher): Promise<boolean> {
  const row = await db
    .selectFrom("provider_credentials")
    .select(["account_id", "provider_id", "iv", "auth_tag", "ciphertext"])
    .where("key_id", "is", null)
    .orderBy("id")
    .limit(1)
    .executeTakeFirstOrThrow();
  try {
    cipher.open(
      { keyId: null, iv: row.iv, authTag: row.auth_tag, ciphertext: row.ciphertext },
      associatedData(row.account_id, row.provider_id),
    );
    return true;
  } catch {
    return false;
  }
}
