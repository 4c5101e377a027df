import { dataOf, errorResponses, json, MANAGEMENT_SECURITY, type ZodOpenApiPathsObject } from "@gw/openapi";
import { z } from "zod";
import { listTransactionsQuery } from "./routes/transactions.js";

// The routes of apps/billing (app.ts), as the edge forwards them.

/** What `GET /api/v1/credits` answers inside `data` (routes/credits.ts). */
export const creditsSchema = z
  .object({
    total_credits: z.number().meta({ description: "USD ever credited to the account." }),
    total_usage: z.number().meta({ description: "USD ever spent; the balance is the difference." }),
  })
  .meta({ id: "Credits" });

/** One line of `GET /api/v1/credits/transactions` (routes/transactions.ts). */
export const transactionSchema = z
  .object({
    kind: z.enum(["purchase", "grant", "usage"]).meta({
      description: "purchase or grant: one credit; usage: one UTC day's requests, net of refunds.",
    }),
    amount: z.number().meta({ description: "USD, signed: credits positive, usage negative." }),
    reference: z
      .string()
      .nullable()
      .meta({ description: "A credit's reference (payment, ticket); null for usage." }),
    entries: z.number().int().meta({ description: "Ledger entries in the line (1 for a credit)." }),
    date: z
      .string()
      .nullable()
      .meta({ description: "The UTC day (YYYY-MM-DD) of a usage line; null for a credit." }),
    created_at: z
      .string()
      .meta({ description: "A credit's time; a usage line's day start (UTC, ISO 8601)." }),
  })
  .meta({ id: "CreditTransaction" });

export const billingOpenApiPaths: ZodOpenApiPathsObject = {
  "/api/v1/credits": {
    get: {
      operationId: "getCredits",
      tags: ["credits"],
      summary: "The account's credits and usage (management key)",
      security: MANAGEMENT_SECURITY,
      responses: {
        "200": { description: "Totals in USD.", content: json(dataOf(creditsSchema)) },
        ...errorResponses("openai", [401, 403, 503]),
      },
    },
  },
  "/api/v1/credits/transactions": {
    get: {
      operationId: "listCreditTransactions",
      tags: ["credits"],
      summary: "The account's credits and daily usage, newest first, cursor-paged (management key)",
      security: MANAGEMENT_SECURITY,
      requestParams: { query: listTransactionsQuery },
      responses: {
        "200": {
          description: "A page of lines; next_cursor is null on the last page.",
          content: json(z.object({ data: z.array(transactionSchema), next_cursor: z.string().nullable() })),
        },
        ...errorResponses("openai", [400, 401, 403, 503]),
      },
    },
  },
};
