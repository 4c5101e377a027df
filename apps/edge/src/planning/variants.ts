import type { CatalogSnapshot, Model } from "../catalog/snapshot.js";

export type SortOrder = "price" | "throughput" | "latency";

export interface ResolvedModel {
  model: Model;
  /** A variant suffix that only changes endpoint order (`:floor`, `:nitro`). */
  sort: SortOrder | undefined;
}

const ORDER_VARIANTS: Readonly<Record<string, SortOrder>> = { floor: "price", nitro: "throughput" };

/**
 * Looks a requested id up in the catalogue. `:free` variants are models of their own (other prices,
 * free-tier limits); `:floor` and `:nitro` are the base model with a different endpoint order.
 */
export function resolveModel(snapshot: CatalogSnapshot, id: string): ResolvedModel | undefined {
  const exact = snapshot.model(id);
  if (exact) return { model: exact, sort: undefined };
  const colon = id.lastIndexOf(":");
  if (colon <= 0) return undefined;
  const sort = ORDER_VARIANTS[id.slice(colon + 1)];
  const base = sort ? snapshot.model(id.slice(0, colon)) : undefined;
  return base && sort ? { model: base, sort } : undefined;
}
