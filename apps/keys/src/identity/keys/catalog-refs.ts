import { GatewayError } from "@gw/errors";
import type { Kysely } from "kysely";
import { unknownModelIds, unknownProviderIds } from "../../catalog/read.js";
import type { KeysTables } from "../../db/schema.js";
import { findAccount } from "../repositories/accounts.js";

export interface AllowLists {
  allowedProviders?: string[] | null;
  allowedModels?: string[] | null;
}

/**
 * Allow-lists may only name providers and models the catalogue knows (400: a typo would otherwise produce
 * a key that silently allows nothing) and only ones inside the account's scope (403: a key can only
 * narrow its tenant). A null list means "the tenant's full scope", so it never exceeds it.
 */
export async function assertAllowLists(
  db: Kysely<KeysTables>,
  accountId: string,
  lists: AllowLists,
): Promise<void> {
  await assertKnownCatalogRefs(db, lists);
  const account = await findAccount(db, accountId);
  assertWithinScope(
    { providers: account?.allowed_providers ?? null, models: account?.allowed_models ?? null },
    lists,
  );
}

export async function assertKnownCatalogRefs(db: Kysely<KeysTables>, lists: AllowLists): Promise<void> {
  const providers = await unknownProviderIds(db, lists.allowedProviders ?? []);
  if (providers.length > 0) throw unknown("allowed_providers", "provider", providers);
  const models = await unknownModelIds(db, lists.allowedModels ?? []);
  if (models.length > 0) throw unknown("allowed_models", "model", models);
}

export interface TenantScope {
  providers: string[] | null;
  models: string[] | null;
}

/** 403 naming every provider or model the key asks for beyond the account's scope. */
export function assertWithinScope(scope: TenantScope, lists: AllowLists): void {
  const providers = outside(scope.providers, lists.allowedProviders);
  if (providers.length > 0) throw refused("allowed_providers", "provider", providers);
  const models = outside(scope.models, lists.allowedModels);
  if (models.length > 0) throw refused("allowed_models", "model", models);
}

function outside(scope: string[] | null, asked: string[] | null | undefined): string[] {
  if (scope === null || asked === null || asked === undefined) return [];
  const allowed = new Set(scope);
  return asked.filter((value) => !allowed.has(value));
}

function refused(field: string, what: string, ids: string[]): GatewayError {
  return new GatewayError(
    "permission",
    `${field}: outside this account's scope: ${what}${ids.length > 1 ? "s" : ""} ${ids.join(", ")}`,
    { code: "outside_account_scope", metadata: { field, refused: ids } },
  );
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
