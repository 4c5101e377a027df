import { cursorPageQuery } from "@gw/http";
import { usdToPico } from "@gw/money";
import { z } from "zod";

// Requests and answers of the operator's account routes (admin-routes.ts). Unknown body fields are
// ignored, as on the key routes.

export const listAccountsQuery = cursorPageQuery;

export const createAccountBody = z.object({
  name: z.string().trim().min(1, "must not be empty").max(200),
});

const USD_DECIMAL = /^\d{1,13}(\.\d{1,12})?$/;

/**
 * The most one credit may add: billing's limit for one ledger entry (MAX_AMOUNT_PICO in @gw/hotstore,
 * 10^18 pico-USD, which keeps the hot view's int64 sums safe). Checked here so a larger amount is a 400
 * naming the limit, not a gRPC int64 overflow answered as "billing service is unavailable; retry".
 */
export const MAX_CREDIT_USD = 1_000_000;
const MAX_CREDIT_PICO = BigInt(MAX_CREDIT_USD) * 1_000_000_000_000n;

export const grantCreditsBody = z.object({
  amount: z
    .union([z.number(), z.string().regex(USD_DECIMAL, 'expected a decimal number of USD, e.g. "12.50"')])
    .transform((value, context) => {
      try {
        const pico = usdToPico(value);
        if (pico > MAX_CREDIT_PICO) {
          context.addIssue({
            code: "custom",
            message: `must be at most ${MAX_CREDIT_USD} USD per credit (the ledger's limit for one entry); split a larger amount`,
          });
          return z.NEVER;
        }
        if (pico > 0n) return pico;
      } catch {
        // reported below
      }
      context.addIssue({
        code: "custom",
        message:
          "must be a positive amount of USD (the ledger takes credits only; usage is debited by requests)",
      });
      return z.NEVER;
    })
    .meta({
      description:
        "USD to credit, positive and at most 1000000 per credit (a number or a decimal string for exact cents).",
    }),
  kind: z.enum(["purchase", "grant"]).default("purchase").meta({
    description:
      "purchase (default, as `gw credits add`): paid credit, ends the free tier; grant: a gift that does not.",
  }),
  reason: z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(500)
    .meta({ description: "Why (a ticket, an invoice): written to the operator audit log." }),
});

/** The Idempotency-Key header: the same key never credits twice. */
export const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,200}$/;

const usd = z.number().meta({ description: "USD" });

const creditsSchema = z.object({
  total_credits: usd,
  total_usage: usd,
  balance: usd.meta({ description: "total_credits - total_usage, USD" }),
  is_free_tier: z.boolean().meta({ description: "True until the account's first purchase." }),
});

export const adminAccountSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    created_at: z.string().meta({ format: "date-time" }),
    allowed_providers: z.array(z.string()).nullable(),
    allowed_models: z.array(z.string()).nullable(),
    credits: creditsSchema,
  })
  .meta({ id: "AdminAccount" });

export type AdminAccountJson = z.infer<typeof adminAccountSchema>;
export type CreditsJson = z.infer<typeof creditsSchema>;

export const adminAccountPageSchema = z.object({
  data: z.array(adminAccountSchema),
  next_cursor: z
    .string()
    .nullable()
    .meta({ description: "Pass as `cursor` for the next page; null on the last." }),
});

export const createdAccountSchema = z.object({
  data: adminAccountSchema,
  management_key: z
    .string()
    .meta({ description: "The account's first management key: shown once, never again." }),
  management_key_hash: z.string().meta({ description: "Its hash, as the keys API names it." }),
});

export const grantedCreditsSchema = z.object({
  data: z.object({
    account_id: z.string(),
    entry_id: z.string().meta({ description: "The ledger entry." }),
    amount: usd,
    kind: z.enum(["purchase", "grant"]),
    created: z.boolean().meta({ description: "False when this Idempotency-Key had already credited it." }),
    credits: creditsSchema.meta({ description: "The account's totals after the credit." }),
  }),
});

export type GrantedCreditsJson = z.infer<typeof grantedCreditsSchema>;
