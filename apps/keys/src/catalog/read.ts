import type { Endpoint } from "@gw/proto/catalog/v1/catalog";
import type { Kysely } from "kysely";
import type { KeysTables } from "../db/schema.js";
import type { CatalogContent } from "./content.js";
import { endpointFromRow, modelFromRow, providerFromRow } from "./rows.js";

export async function readCatalogVersion(db: Kysely<KeysTables>): Promise<string | undefined> {
  const row = await db.selectFrom("catalog_meta").select("version").where("id", "=", 1).executeTakeFirst();
  return row?.version;
}

/** The whole catalogue as stored, read in one repeatable-read transaction so version and rows agree. */
export async function readCatalog(
  db: Kysely<KeysTables>,
): Promise<{ version: string | undefined; content: CatalogContent }> {
  return db
    .transaction()
    .setIsolationLevel("repeatable read")
    .execute(async (trx) => {
      const version = await readCatalogVersion(trx);
      const providers = await trx.selectFrom("providers").selectAll().orderBy("position").execute();
      const models = await trx.selectFrom("models").selectAll().orderBy("position").execute();
      const endpoints = await trx
        .selectFrom("model_endpoints")
        .selectAll()
        .orderBy("model_id")
        .orderBy("position")
        .execute();
      const byModel = new Map<string, Endpoint[]>();
      for (const row of endpoints) {
        const list = byModel.get(row.model_id) ?? [];
        list.push(endpointFromRow(row));
        byModel.set(row.model_id, list);
      }
      return {
        version,
        content: {
          providers: providers.map(providerFromRow),
          models: models.map((row) => modelFromRow(row, byModel.get(row.id) ?? [])),
        },
      };
    });
}

/** Ids among `ids` that the catalogue does not know, in the order given. */
export async function unknownProviderIds(db: Kysely<KeysTables>, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const known = await db
    .selectFrom("providers")
    .select("id")
    .where("id", "in", [...ids])
    .execute();
  const found = new Set(known.map((row) => row.id));
  return ids.filter((id) => !found.has(id));
}

export async function unknownModelIds(db: Kysely<KeysTables>, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const known = await db
    .selectFrom("models")
    .select("id")
    .where("id", "in", [...ids])
    .execute();
  const found = new Set(known.map((row) => row.id));
  return ids.filter((id) => !found.has(id));
}
