import { fromCatalogSnapshot, validateCatalog } from "@gw/catalog";
import type { Kysely, Transaction } from "kysely";
import type { KeysTables } from "../db/schema.js";
import type { CatalogContent } from "./content.js";
import { contentVersion } from "./content.js";
import { type DiffEntry, diffCatalog } from "./diff.js";
import {
  applyOverlay,
  type EndpointPatch,
  emptyOverlay,
  endpointKey,
  type ModelPatch,
  type Overlay,
  patchFromJson,
  patchToJson,
  splitEndpointKey,
} from "./overlay.js";
import { type HighPrice, HighPriceError, highPrices } from "./price-guard.js";
import { lockCatalog, type SeedResult, writeCatalog } from "./seed.js";

type Db = Kysely<KeysTables> | Transaction<KeysTables>;

/** A change was refused: every problem is listed and nothing was written. */
export class CatalogChangeError extends Error {
  constructor(readonly problems: string[]) {
    super(`catalogue change refused: ${problems.join("; ")}`);
  }
}

export async function readOverlay(db: Db): Promise<Overlay> {
  const overlay = emptyOverlay();
  const models = await db.selectFrom("catalog_model_overrides").selectAll().orderBy("model_id").execute();
  for (const row of models) overlay.models.set(row.model_id, patchFromJson<ModelPatch>(row.patch));
  const endpoints = await db
    .selectFrom("catalog_endpoint_overrides")
    .selectAll()
    .orderBy("model_id")
    .orderBy("provider_id")
    .execute();
  for (const row of endpoints) {
    overlay.endpoints.set(
      endpointKey(row.model_id, row.provider_id),
      patchFromJson<EndpointPatch>(row.patch),
    );
  }
  const aliases = await db.selectFrom("catalog_aliases").selectAll().orderBy("alias").execute();
  for (const row of aliases) overlay.aliases.set(row.alias, row.model_id);
  return overlay;
}

/** The seed with the stored overlay, written as the served catalogue (what every keys start does). */
export async function refreshCatalog(db: Kysely<KeysTables>, seed: CatalogContent): Promise<SeedResult> {
  return db.transaction().execute(async (trx) => {
    await lockCatalog(trx);
    return writeCatalog(trx, applyOverlay(seed, await readOverlay(trx)));
  });
}

export interface ChangeRequest {
  /** Who: `operator:<token name>` for the admin routes, `cli:<user>` for the operator CLI. */
  actor: string;
  /** What: `import`, `set-price`, `disable`, `enable`, `alias`, ... */
  action: string;
  /** Edits the overlay in place; may add problems (checked before anything is written). */
  edit: (overlay: Overlay, current: CatalogContent) => string[];
  /** When true, nothing is written: the answer is the diff the change would make. */
  dryRun: boolean;
  /**
   * True (the admin routes, unless the request confirms): a change setting a price above the
   * price-guard thresholds is refused with a HighPriceError. The operator CLI, run on the host, does not ask.
   */
  refuseHighPrices?: boolean;
}

export interface ChangeResult {
  applied: boolean;
  diff: DiffEntry[];
  /** The prices the change sets above the price-guard thresholds (a dry run lists them too). */
  highPrices: HighPrice[];
  versionBefore: string | undefined;
  /** The version the catalogue has (applied) or would have (dry run). */
  version: string;
}

/**
 * One operator change, atomically: under the catalogue lock, the overlay is read and edited, the
 * effective catalogue recomputed and checked (a change may not add an invariant violation), and then the
 * overlay rows, the served tables and one catalog_changes row (who, when, every field old -> new) are
 * written in the same transaction. Edges see the new version on their next poll.
 */
export async function changeCatalog(
  db: Kysely<KeysTables>,
  seed: CatalogContent,
  request: ChangeRequest,
): Promise<ChangeResult> {
  return db.transaction().execute(async (trx) => {
    await lockCatalog(trx);
    const stored = await readOverlay(trx);
    const before = applyOverlay(seed, stored);
    const overlay = cloneOverlay(stored);
    const problems = request.edit(overlay, before);
    const after = applyOverlay(seed, overlay);
    problems.push(...newProblems(before, after));
    if (problems.length > 0) throw new CatalogChangeError(problems);
    const versionBefore = (await trx.selectFrom("catalog_meta").select("version").executeTakeFirst())
      ?.version;
    const diff = diffCatalog(before, after);
    const version = contentVersion(after);
    const high = highPrices(before, after);
    if (request.dryRun || diff.length === 0)
      return { applied: false, diff, highPrices: high, versionBefore, version };
    if (request.refuseHighPrices && high.length > 0) throw new HighPriceError(high);
    await writeOverlay(trx, stored, overlay, request.actor);
    const written = await writeCatalog(trx, after);
    await trx
      .insertInto("catalog_changes")
      .values({
        actor: request.actor,
        action: request.action,
        diff: JSON.stringify(diff),
        version_before: versionBefore ?? null,
        version_after: written.version,
      })
      .execute();
    return { applied: true, diff, highPrices: high, versionBefore, version: written.version };
  });
}

/** Invariant violations `after` has that `before` did not (a test seed may carry some of its own). */
function newProblems(before: CatalogContent, after: CatalogContent): string[] {
  const known = new Set(problemsOf(before));
  return problemsOf(after).filter((problem) => !known.has(problem));
}

function problemsOf(content: CatalogContent): string[] {
  return validateCatalog(
    fromCatalogSnapshot({
      version: "",
      notModified: false,
      providers: content.providers,
      models: content.models,
    }),
  );
}

function cloneOverlay(overlay: Overlay): Overlay {
  return {
    models: new Map([...overlay.models].map(([id, patch]) => [id, structuredClone(patch)])),
    endpoints: new Map([...overlay.endpoints].map(([key, patch]) => [key, structuredClone(patch)])),
    aliases: new Map(overlay.aliases),
  };
}

/** Writes only the overlay rows that changed, so each keeps who last set it and when. */
async function writeOverlay(
  trx: Transaction<KeysTables>,
  before: Overlay,
  after: Overlay,
  actor: string,
): Promise<void> {
  const now = new Date();
  for (const [modelId, patch] of after.models) {
    if (same(before.models.get(modelId), patch)) continue;
    const row = { model_id: modelId, patch: patchToJson(patch), updated_by: actor, updated_at: now };
    await trx
      .insertInto("catalog_model_overrides")
      .values(row)
      .onConflict((conflict) => conflict.column("model_id").doUpdateSet(row))
      .execute();
  }
  for (const modelId of before.models.keys()) {
    if (!after.models.has(modelId))
      await trx.deleteFrom("catalog_model_overrides").where("model_id", "=", modelId).execute();
  }
  for (const [key, patch] of after.endpoints) {
    if (same(before.endpoints.get(key), patch)) continue;
    const { modelId, providerId } = splitEndpointKey(key);
    const row = {
      model_id: modelId,
      provider_id: providerId,
      patch: patchToJson(patch),
      updated_by: actor,
      updated_at: now,
    };
    await trx
      .insertInto("catalog_endpoint_overrides")
      .values(row)
      .onConflict((conflict) => conflict.columns(["model_id", "provider_id"]).doUpdateSet(row))
      .execute();
  }
  for (const key of before.endpoints.keys()) {
    if (after.endpoints.has(key)) continue;
    const { modelId, providerId } = splitEndpointKey(key);
    await trx
      .deleteFrom("catalog_endpoint_overrides")
      .where("model_id", "=", modelId)
      .where("provider_id", "=", providerId)
      .execute();
  }
  await writeAliases(trx, before.aliases, after.aliases, actor, now);
}

async function writeAliases(
  trx: Transaction<KeysTables>,
  before: Map<string, string>,
  after: Map<string, string>,
  actor: string,
  now: Date,
): Promise<void> {
  for (const [alias, modelId] of after) {
    if (before.get(alias) === modelId) continue;
    const row = { alias, model_id: modelId, updated_by: actor, updated_at: now };
    await trx
      .insertInto("catalog_aliases")
      .values(row)
      .onConflict((conflict) => conflict.column("alias").doUpdateSet(row))
      .execute();
  }
  for (const alias of before.keys()) {
    if (!after.has(alias)) await trx.deleteFrom("catalog_aliases").where("alias", "=", alias).execute();
  }
}

function same(a: ModelPatch | EndpointPatch | undefined, b: ModelPatch | EndpointPatch): boolean {
  return a !== undefined && patchToJson(a) === patchToJson(b);
}

export interface CatalogChange {
  id: string;
  at: Date;
  actor: string;
  action: string;
  diff: DiffEntry[];
  versionBefore: string | null;
  versionAfter: string;
}

/** The history, newest first. */
export async function readCatalogChanges(db: Db, limit = 50): Promise<CatalogChange[]> {
  const rows = await db
    .selectFrom("catalog_changes")
    .selectAll()
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: row.id.toString(),
    at: row.at,
    actor: row.actor,
    action: row.action,
    diff: row.diff as DiffEntry[],
    versionBefore: row.version_before,
    versionAfter: row.version_after,
  }));
}
