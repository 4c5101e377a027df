import { randomBytes, randomUUID } from "node:crypto";
import { hashSecret } from "@gw/auth";
import type { Kysely } from "kysely";
import type { KeysTables } from "../../db/schema.js";

// The operator credential for the catalogue admin routes. Not an account's key: it belongs to whoever
// runs the gateway, is created with `gw operator-token create` (the secret printed once), and only its
// SHA-256 is stored. A tenant's management key on those routes is a 403.

export const OPERATOR_TOKEN_PREFIX = "gw_op_";
const OPERATOR_TOKEN = /^gw_op_[0-9a-f]{48}$/;

export function looksLikeOperatorToken(secret: string): boolean {
  return OPERATOR_TOKEN.test(secret);
}

export interface CreatedOperatorToken {
  id: string;
  name: string;
  /** Shown once; never stored or logged. */
  token: string;
}

export async function createOperatorToken(
  db: Kysely<KeysTables>,
  name: string,
): Promise<CreatedOperatorToken> {
  const trimmed = name.trim();
  if (!/^[\x21-\x7e][\x20-\x7e]{0,63}$/.test(trimmed)) {
    throw new RangeError("an operator token's name is 1-64 printable characters");
  }
  const token = `${OPERATOR_TOKEN_PREFIX}${randomBytes(24).toString("hex")}`;
  const id = randomUUID();
  await db
    .insertInto("operator_tokens")
    .values({ id, name: trimmed, hash: hashSecret(token) })
    .execute();
  return { id, name: trimmed, token };
}

/** Revokes by id or name; answers how many tokens it revoked. */
export async function revokeOperatorToken(db: Kysely<KeysTables>, idOrName: string): Promise<number> {
  const result = await db
    .updateTable("operator_tokens")
    .set({ revoked_at: new Date() })
    .where((eb) => eb.or([eb("id", "=", idOrName), eb("name", "=", idOrName)]))
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function listOperatorTokens(
  db: Kysely<KeysTables>,
): Promise<Array<{ id: string; name: string; createdAt: Date; revokedAt: Date | null }>> {
  const rows = await db
    .selectFrom("operator_tokens")
    .select(["id", "name", "created_at", "revoked_at"])
    .orderBy("created_at")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  }));
}

/** The live token's name for a presented secret, or undefined (unknown or revoked). */
export async function operatorTokenName(db: Kysely<KeysTables>, secret: string): Promise<string | undefined> {
  if (!looksLikeOperatorToken(secret)) return undefined;
  const row = await db
    .selectFrom("operator_tokens")
    .select("name")
    .where("hash", "=", hashSecret(secret))
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  return row?.name;
}
