import { MAX_BYOK_SECRET_LENGTH } from "@gw/http";
import { z } from "zod";

// Request bodies of the BYOK routes, field for field what OpenRouter's SDK sends (its `byok` client works
// against these routes unchanged). Fields we do not act on (allowed_user_ids, is_fallback, ...) are
// ignored, like unknown fields on the key routes.

const name = z.string().trim().min(1, "must not be empty").max(200);
/**
 * Checked against its provider's shape where the provider is known (byok/service.ts, `byokSecret`): an API
 * key is a header value, a Vertex key file or an Azure JSON credential is JSON. Here only its size.
 */
const providerKey = z.string().trim().min(1, "must not be empty").max(MAX_BYOK_SECRET_LENGTH);
/** 0-based place in the order the edge tries the account's own keys. */
const position = z.number().int().min(0).max(10_000);

export const createCredentialBody = z.object({
  provider: z.string().trim().min(1, "must not be empty"),
  key: providerKey,
  name: name.nullable().optional(),
  disabled: z.boolean().optional(),
});

export const updateCredentialBody = z.object({
  name: name.nullable().optional(),
  /** A new provider key for the same provider: re-sealed, the old one is gone. */
  key: providerKey.optional(),
  disabled: z.boolean().optional(),
  position: position.optional(),
  /** OpenRouter's name for the position. */
  sort_order: position.optional(),
});

export const listCredentialsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(100),
  offset: z.coerce.number().int().min(0).default(0),
  provider: z.string().min(1).optional(),
  workspace_id: z.string().optional(),
});

export type CreateCredentialBody = z.infer<typeof createCredentialBody>;
export type UpdateCredentialBody = z.infer<typeof updateCredentialBody>;
