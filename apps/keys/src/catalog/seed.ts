import type { Model } from "@gw/proto/catalog/v1/catalog";
import { type Kysely, sql, type Transaction } from "kysely";
import type { KeysTables } from "../db/schema.js";
import { type CatalogContent, contentVersion } from "./content.js";
import { endpointRows, modelRow, providerRow } from "./rows.js";

export interface SeedResult {
  version: string;
  changed: boolean;
}

// Any constant works: it serialises everything that writes the catalogue (keys replicas seeding at
// start, operator changes), so each writer reads the overlay and writes the result without a race.
const SEED_LOCK = 7_240_001;

export async function lockCatalog(trx: Transaction<KeysTables>): Promise<void> {
  await sql`select pg_advisory_xact_lock(${SEED_LOCK})`.execute(trx);
}

/**
 * Upserts the catalogue into the tables in one transaction and records its version. Seeding the same
 * content again changes nothing, so the snapshot version moves only when the content does.
 */
export async function seedCatalog(db: Kysely<KeysTables>, content: CatalogContent): Promise<SeedResult> {
  return db.transaction().execute((trx) => writeCatalog(trx, content));
}

/** seedCatalog inside the caller's transaction (which may already hold the lock: it is re-entrant). */
export async function writeCatalog(
  trx: Transaction<KeysTables>,
  content: CatalogContent,
): Promise<SeedResult> {
  const version = contentVersion(content);
  await lockCatalog(trx);
  const current = await trx
    .selectFrom("catalog_meta")
    .select("version")
    .where("id", "=", 1)
    .executeTakeFirst();
  if (current?.version === version) return { version, changed: false };
  await upsertProviders(trx, content);
  await upsertModels(trx, content.models);
  await replaceEndpoints(trx, content.models);
  await deleteStale(trx, content);
  await trx
    .insertInto("catalog_meta")
    .values({ id: 1, version })
    .onConflict((conflict) => conflict.column("id").doUpdateSet({ version, updated_at: sql<Date>`now()` }))
    .execute();
  return { version, changed: true };
}

async function upsertProviders(trx: Transaction<KeysTables>, content: CatalogContent): Promise<void> {
  if (content.providers.length === 0) return;
  await trx
    .insertInto("providers")
    .values(content.providers.map(providerRow))
    .onConflict((conflict) =>
      conflict.column("id").doUpdateSet((eb) => ({
        name: eb.ref("excluded.name"),
        api_format: eb.ref("excluded.api_format"),
        is_demo: eb.ref("excluded.is_demo"),
        position: eb.ref("excluded.position"),
      })),
    )
    .execute();
}

async function upsertModels(trx: Transaction<KeysTables>, models: Model[]): Promise<void> {
  if (models.length === 0) return;
  await trx
    .insertInto("models")
    .values(models.map(modelRow))
    .onConflict((conflict) =>
      conflict.column("id").doUpdateSet((eb) => ({
        name: eb.ref("excluded.name"),
        author: eb.ref("excluded.author"),
        kind: eb.ref("excluded.kind"),
        created_unix: eb.ref("excluded.created_unix"),
        context_length: eb.ref("excluded.context_length"),
        is_free: eb.ref("excluded.is_free"),
        limit_requests: eb.ref("excluded.limit_requests"),
        limit_interval_seconds: eb.ref("excluded.limit_interval_seconds"),
        aliases: eb.ref("excluded.aliases"),
        position: eb.ref("excluded.position"),
      })),
    )
    .execute();
}

/** Endpoints are owned by their model: replacing them wholesale is simpler than diffing and still atomic. */
async function replaceEndpoints(trx: Transaction<KeysTables>, models: Model[]): Promise<void> {
  await trx.deleteFrom("model_endpoints").execute();
  const rows = models.flatMap(endpointRows);
  if (rows.length > 0) await trx.insertInto("model_endpoints").values(rows).execute();
}

async function deleteStale(trx: Transaction<KeysTables>, content: CatalogContent): Promise<void> {
  const modelIds = content.models.map((model) => model.id);
  const providerIds = content.providers.map((provider) => provider.id);
  let models = trx.deleteFrom("models");
  if (modelIds.length > 0) models = models.where("id", "not in", modelIds);
  await models.execute();
  let providers = trx.deleteFrom("providers");
  if (providerIds.length > 0) providers = providers.where("id", "not in", providerIds);
  await providers.execute();
}
