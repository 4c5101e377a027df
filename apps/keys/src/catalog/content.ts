import { createHash } from "node:crypto";
import { toCatalogSnapshot } from "@gw/catalog";
import type { Model, Provider } from "@gw/proto/catalog/v1/catalog";

export type { Model as CatalogModel, Provider as CatalogProvider };

/** What the keys app seeds and serves: the catalogue in its wire (catalog.v1) shape. */
export interface CatalogContent {
  providers: Provider[];
  models: Model[];
  /** The content's version when the source already computed one; otherwise derived from the content. */
  version?: string;
}

/**
 * The bundled catalogue, carrying @gw/catalog's own content version, so a process holding the bundled
 * data and one holding a snapshot served from these tables agree on the version.
 */
export function bundledCatalog(): CatalogContent {
  const snapshot = toCatalogSnapshot();
  return { providers: snapshot.providers, models: snapshot.models, version: snapshot.version };
}

/**
 * A digest of the content, so re-seeding identical data keeps the version (edges keep their snapshot)
 * and any change of a price, limit or endpoint produces a new one.
 */
export function contentVersion(content: CatalogContent): string {
  if (content.version) return content.version;
  const canonical = JSON.stringify(
    { providers: content.providers, models: content.models },
    (_key, value: unknown) => (typeof value === "bigint" ? value.toString() : value),
  );
  return createHash("sha256").update(canonical).digest("hex").slice(0, 32);
}
