import { createHash } from "node:crypto";
import { CATALOG } from "./catalog.js";
import type { CatalogData } from "./types.js";

/**
 * A content hash of the catalogue: equal data gives an equal version in every process, so the edge and billing
 * can poll `CatalogService` with the version they hold and get `not_modified` until the data changes.
 */
export function catalogVersion(data: CatalogData = CATALOG): string {
  return createHash("sha256").update(canonicalJson(data)).digest("hex").slice(0, 32);
}

/** JSON with sorted object keys and bigints written as `"<digits>n"`, so the text depends only on content. */
export function canonicalJson(value: unknown): string {
  if (typeof value === "bigint") return JSON.stringify(`${value}n`);
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const entries = Object.entries(value)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}
