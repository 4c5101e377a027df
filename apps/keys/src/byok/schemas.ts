import { z } from "zod";

// Request bodies of the BYOK routes. Unknown fields are ignored, like the key routes.

const name = z.string().trim().min(1, "must not be empty").max(200);

export const createCredentialBody = z.object({
  provider: z.string().trim().min(1, "must not be empty"),
  key: z.string().trim().min(1, "must not be empty").max(4_096),
  name: name.optional(),
});

export const updateCredentialBody = z.object({
  name: name.optional(),
  /** 0-based place in the order the edge tries the account's own keys. */
  position: z.number().int().min(0).max(10_000).optional(),
});

export type CreateCredentialBody = z.infer<typeof createCredentialBody>;
export type UpdateCredentialBody = z.infer<typeof updateCredentialBody>;
