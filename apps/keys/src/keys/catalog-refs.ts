import { GatewayError } from "@gw/errors";
import type { Kysely } from "kysely";
import { unknownModelIds, unknownProviderIds } from "../catalog/read.js";
import type { KeysTables } from "../db/schema.js";

export interface AllowLists {
  allowedProviders?: string[] | null;
  allowedModels?: string[] | null;
}

/**
 * Allow-lists may only name providers and models the catalogue knows: a typo would otherwise produce a
 * key that silently allows nothing. The tenant-scope check (403 for anything outside the account's
 * scope) belongs beside this one.
 */
export async function assertKnownCatalogRefs(db: Kysely<KeysTables>, lists: AllowLists): Promise<void> {
  const providers = await unknownProviderIds(db, lists.allowedProviders ?? []);
  if (providers.length > 0) throw unknown("allowed_providers", "provider", providers);
  const models = await unknownModelIds(db, lists.allowedModels ?? []);
  if (models.length > 0) throw unknown("allowed_models", "model", models);
}

function unknown(field: string, what: string, ids: string[]): GatewayError {
  return new GatewayError(
    "invalid_request",
    `${field}: unknown ${what}${ids.length > 1 ? "s" : ""}: ${ids.join(", ")}`,
    {
      code: "invalid_request",
      metadata: { field, unknown: ids },
    },
  );
}
