import { usdToPico } from "@gw/money";
import { z } from "zod";
import type { KeyPatch, KeySettings } from "./settings.js";

// Request bodies of the key-management routes. Unknown fields are ignored, as OpenRouter's API does,
// so SDKs that send extra fields keep working.

const MAX_LIMIT_USD = 1_000_000_000_000;
const MAX_LIST_ENTRIES = 1_000;

const name = z.string().trim().min(1, "must not be empty").max(200);
const limit = z.number().min(0).max(MAX_LIMIT_USD).nullable();
/**
 * `never` is the spec's word for a lifetime cap (its Limits table); the key object shows a lifetime cap
 * as null, so `never` is stored and shown as null.
 */
const limitReset = z
  .enum(["daily", "weekly", "monthly", "never"])
  .nullable()
  .transform((value) => (value === "never" ? null : value));
const allowList = z
  .array(z.string().trim().min(1, "must not be empty"))
  .max(MAX_LIST_ENTRIES)
  .nullable()
  .transform((values) => (values === null ? null : [...new Set(values)]));

const UTC_OFFSET = /(?:Z|[+-]00:?00)$/i;

/** ISO 8601 in UTC and in the future: a key that is born expired is a mistake worth a 400. */
const expiresAt = z.iso
  .datetime({ offset: true, message: "must be an ISO 8601 timestamp" })
  .refine((value) => UTC_OFFSET.test(value), "must be in UTC (end with Z)")
  .transform((value) => new Date(value))
  .refine((date) => date.getTime() > Date.now(), "must be in the future")
  .nullable();

export const createKeyBody = z.object({
  name,
  limit: limit.optional(),
  limit_reset: limitReset.optional(),
  expires_at: expiresAt.optional(),
  allowed_providers: allowList.optional(),
  allowed_models: allowList.optional(),
  include_byok_in_limit: z.boolean().optional(),
});

export const updateKeyBody = z.object({
  name: name.optional(),
  disabled: z.boolean().optional(),
  limit: limit.optional(),
  limit_reset: limitReset.optional(),
  allowed_providers: allowList.optional(),
  allowed_models: allowList.optional(),
  include_byok_in_limit: z.boolean().optional(),
  // Beyond the spec, whose PATCH lists no expires_at: a key's expiry can be moved or removed (null)
  // without replacing the key and its secret. Same checks as on create.
  expires_at: expiresAt.optional().meta({
    description:
      "An extension: the spec's PATCH has no expires_at. A new expiry (ISO 8601 in UTC, in the future; checked as on create), or null to remove it. Every edge applies the change at once.",
  }),
});

export function toSettings(body: z.infer<typeof createKeyBody>): KeySettings {
  return {
    name: body.name,
    limitPico: body.limit === undefined || body.limit === null ? null : usdToPico(body.limit),
    limitReset: body.limit_reset ?? null,
    expiresAt: body.expires_at ?? null,
    allowedProviders: body.allowed_providers ?? null,
    allowedModels: body.allowed_models ?? null,
    includeByokInLimit: body.include_byok_in_limit ?? false,
  };
}

/** Only fields present in the body end up in the patch; an explicit null is a change to null. */
export function toPatch(body: z.infer<typeof updateKeyBody>): KeyPatch {
  const patch: KeyPatch = {};
  if (body.name !== undefined) patch.name = body.name;
  if (body.disabled !== undefined) patch.disabled = body.disabled;
  if (body.limit !== undefined) patch.limitPico = body.limit === null ? null : usdToPico(body.limit);
  if (body.limit_reset !== undefined) patch.limitReset = body.limit_reset;
  if (body.allowed_providers !== undefined) patch.allowedProviders = body.allowed_providers;
  if (body.allowed_models !== undefined) patch.allowedModels = body.allowed_models;
  if (body.include_byok_in_limit !== undefined) patch.includeByokInLimit = body.include_byok_in_limit;
  if (body.expires_at !== undefined) patch.expiresAt = body.expires_at;
  return patch;
}

export const listKeysQuery = z.object({
  page_size: z.coerce.number().int().min(1).max(500).default(100),
  offset: z.coerce.number().int().min(0).optional(),
  page_token: z.string().optional(),
  include_disabled: z
    .enum(["true", "false", "1", "0"])
    .optional()
    .transform((value) => value === "true" || value === "1"),
});
