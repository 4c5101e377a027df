import { z } from "zod";
import type { CredentialJson } from "./byok/view.js";
import type { KeyJson } from "./keys/view.js";
import type { SignInResult } from "./wallets/sign-in.js";

// Response schemas of identity's routes, for the OpenAPI document (openapi.ts). The routes render their
// answers with the view functions; `satisfies` ties each schema to the view's type, so a field added
// to a view and not here (or typed differently) fails the typecheck.

const usd = z.number().meta({ description: "USD" });
const timestamp = z.string().meta({ format: "date-time" });
const limitReset = z.enum(["daily", "weekly", "monthly"]).nullable();

export const keySchema = z
  .object({
    hash: z.string().meta({ description: "The key's id: the SHA-256 of its secret, hex." }),
    name: z.string(),
    label: z.string().meta({ description: "The secret's first and last characters, for recognising it." }),
    key_type: z.enum(["management", "regular"]),
    disabled: z.boolean(),
    limit: usd.nullable(),
    limit_remaining: usd.nullable(),
    limit_reset: limitReset.meta({ description: "The UTC window of `limit`; null: a lifetime cap." }),
    include_byok_in_limit: z.boolean(),
    allowed_providers: z.array(z.string()).nullable(),
    allowed_models: z.array(z.string()).nullable(),
    usage: usd,
    usage_daily: usd,
    usage_weekly: usd,
    usage_monthly: usd,
    byok_usage: usd,
    byok_usage_daily: usd,
    byok_usage_weekly: usd,
    byok_usage_monthly: usd,
    created_at: timestamp,
    updated_at: timestamp,
    expires_at: timestamp.nullable(),
    workspace_id: z.string(),
    creator_user_id: z.string().nullable(),
    external_user: z.string().nullable(),
  })
  .meta({ id: "Key" }) satisfies z.ZodType<KeyJson>;

export const keyListSchema = z.object({
  data: z.array(keySchema),
  next_page_token: z.string().nullable().meta({ description: "Pass as page_token for the next page." }),
});

export const managementKeyListSchema = z.object({
  data: z.array(keySchema).meta({ description: "The account's management keys, oldest first." }),
});

export const createdKeySchema = z.object({
  data: keySchema,
  key: z.string().meta({ description: "The secret: shown once, only here." }),
});

export const credentialSchema = z
  .object({
    id: z.string(),
    provider: z.string(),
    name: z.string(),
    label: z.string().meta({ description: "The provider key masked; the key itself is never shown." }),
    disabled: z.boolean(),
    position: z.number().int(),
    sort_order: z.number().int(),
    workspace_id: z.string(),
    allowed_api_key_hashes: z.null(),
    allowed_models: z.null(),
    allowed_user_ids: z.null(),
    declared_zdr: z.null(),
    is_byok_only: z.boolean(),
    is_fallback: z.boolean(),
    is_required: z.boolean(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: "ByokCredential" }) satisfies z.ZodType<CredentialJson>;

export const credentialListSchema = z.object({
  data: z.array(credentialSchema),
  total_count: z.number().int(),
});

export const signInSchema = z
  .object({
    jwt: z.string().meta({ description: "Use as `Authorization: Bearer` on inference routes." }),
    tenant_id: z.string(),
    key_id: z.string(),
    account_id: z.string().meta({ description: "The wallet's CAIP-10 account." }),
    expires_at: timestamp,
  })
  .meta({ id: "WalletSignIn" }) satisfies z.ZodType<Omit<SignInResult, "created">>;
