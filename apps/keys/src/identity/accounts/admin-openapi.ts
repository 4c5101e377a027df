import { errorResponses, json, OPERATOR_SECURITY, type ZodOpenApiPathsObject } from "@gw/openapi";
import { z } from "zod";
import {
  adminAccountPageSchema,
  createAccountBody,
  createdAccountSchema,
  grantCreditsBody,
  grantedCreditsSchema,
  listAccountsQuery,
} from "./admin-schemas.js";

// The operator's account routes (admin-routes.ts) as the edge forwards them: an operator token only
// (`gw operator-token create`); an account's management key or API key is a 403.

const tags = ["accounts"];

export const accountsAdminOpenApiPaths: ZodOpenApiPathsObject = {
  "/api/v1/admin/accounts": {
    get: {
      operationId: "adminListAccounts",
      tags,
      summary: "Every account, newest first, with its credits and balance (operator token)",
      description:
        "Keyset pagination: a page's next_cursor resumes after its last account, so accounts created " +
        "meanwhile never shift or repeat one. Credits are billing's ledger totals (a 503 when billing " +
        "cannot be reached, never zeros).",
      security: OPERATOR_SECURITY,
      requestParams: { query: listAccountsQuery },
      responses: {
        "200": { description: "A page of accounts.", content: json(adminAccountPageSchema) },
        ...errorResponses("openai", [400, 401, 403, 503]),
      },
    },
    post: {
      operationId: "adminCreateAccount",
      tags,
      summary: "Create an account and its first management key (shown once)",
      description: "As `gw accounts create`. Credit it with POST /api/v1/admin/accounts/{id}/credits.",
      security: OPERATOR_SECURITY,
      requestBody: { required: true, content: json(createAccountBody) },
      responses: {
        "201": { description: "The account and its management key.", content: json(createdAccountSchema) },
        ...errorResponses("openai", [400, 401, 403]),
      },
    },
  },
  "/api/v1/admin/accounts/{id}/credits": {
    post: {
      operationId: "adminGrantCredits",
      tags,
      summary: "Credit an account (a purchase or a grant), with a reason; idempotent with Idempotency-Key",
      description:
        "As `gw credits add`: one positive entry in billing's ledger, effective for admission at once. " +
        "With an Idempotency-Key header the same key never credits twice (the repeat answers 200 with " +
        "created: false; reused for another amount or kind it is a 400). The ledger takes credits only: " +
        "a negative adjustment is refused. The reason goes to the operator audit log.",
      security: OPERATOR_SECURITY,
      requestParams: {
        path: z.object({ id: z.string().meta({ description: "The account id." }) }),
        header: z.object({
          "idempotency-key": z.string().optional().meta({
            description: "1-200 printable ASCII characters; repeats of a credit with it are no-ops.",
          }),
        }),
      },
      requestBody: { required: true, content: json(grantCreditsBody) },
      responses: {
        "201": { description: "Credited.", content: json(grantedCreditsSchema) },
        "200": {
          description: "This Idempotency-Key had already credited the account; nothing was written.",
          content: json(grantedCreditsSchema),
        },
        ...errorResponses("openai", [400, 401, 403, 404, 503]),
      },
    },
  },
};
