import { dataOf, errorResponses, json, MANAGEMENT_SECURITY, type ZodOpenApiPathsObject } from "@gw/openapi";
import { z } from "zod";

// The routes of apps/billing (app.ts), as the edge forwards them.

/** What `GET /api/v1/credits` answers inside `data` (routes/credits.ts). */
export const creditsSchema = z
  .object({
    total_credits: z.number().meta({ description: "USD ever credited to the account." }),
    total_usage: z.number().meta({ description: "USD ever spent; the balance is the difference." }),
  })
  .meta({ id: "Credits" });

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
};
