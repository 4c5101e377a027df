import type { Kysely } from "kysely";
import type { KeysTables } from "../db/schema.js";
import type { CatalogContent } from "./content.js";
import { parseImport } from "./import/index.js";
import { importModels } from "./operations.js";
import { splitEndpointKey } from "./overlay.js";
import { readCatalog } from "./read.js";
import { CatalogChangeError, type ChangeResult, changeCatalog, readOverlay } from "./store.js";

// What the operator routes and the operator CLI share, so both refuse and answer alike.

export interface ImportRequest {
  format: string;
  text: string;
  /** False (the default everywhere): a dry run answering the diff; true writes it. */
  apply: boolean;
  actor: string;
  skipUnknownProviders?: boolean | undefined;
  providerId?: string | undefined;
  /** The admin route: refuse prices above the price-guard thresholds (store.ts, refuseHighPrices). */
  refuseHighPrices?: boolean;
}

export interface ImportResult extends ChangeResult {
  models: number;
  skipped: string[];
}

/** Parses and upserts an import file; any problem (parse or invariant) refuses all of it. */
export async function importCatalog(
  db: Kysely<KeysTables>,
  seed: CatalogContent,
  request: ImportRequest,
): Promise<ImportResult> {
  let parsed: ReturnType<typeof parseImport> | undefined;
  const result = await changeCatalog(db, seed, {
    actor: request.actor,
    action: `import:${request.format}`,
    dryRun: !request.apply,
    refuseHighPrices: request.refuseHighPrices ?? false,
    edit: (overlay, current) => {
      parsed = parseImport(request.text, { ...request, current });
      return [...parsed.problems, ...importModels(parsed.models)(overlay, current)];
    },
  });
  return { ...result, models: parsed?.models.length ?? 0, skipped: parsed?.skipped ?? [] };
}

export interface CatalogListing {
  version: string | undefined;
  content: CatalogContent;
  /** Models and endpoints an operator disabled (not served; `enable` brings them back). */
  disabled: Array<{ modelId: string; providerId: string | null }>;
}

export async function listCatalog(db: Kysely<KeysTables>): Promise<CatalogListing> {
  const { version, content } = await readCatalog(db);
  const overlay = await readOverlay(db);
  const disabled: CatalogListing["disabled"] = [];
  for (const [modelId, patch] of overlay.models)
    if (patch.disabled) disabled.push({ modelId, providerId: null });
  for (const [key, patch] of overlay.endpoints)
    if (patch.disabled) disabled.push({ ...splitEndpointKey(key) });
  return { version, content, disabled };
}

export { CatalogChangeError };
