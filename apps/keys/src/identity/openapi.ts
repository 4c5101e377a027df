import {
  dataOf,
  deletedSchema,
  errorResponses,
  json,
  MANAGEMENT_SECURITY,
  type ZodOpenApiPathsObject,
} from "@gw/openapi";
import { z } from "zod";
import { createCredentialBody, listCredentialsQuery, updateCredentialBody } from "./byok/schemas.js";
import { createKeyBody, listKeysQuery, updateKeyBody } from "./keys/schemas.js";
import {
  createdKeySchema,
  credentialListSchema,
  credentialSchema,
  keyListSchema,
  keySchema,
  managementKeyListSchema,
  signInSchema,
} from "./openapi-schemas.js";
import { structuredProof, textProof } from "./wallets/proof.js";

// Identity's routes (registered in app.ts), as the edge forwards them; its operator routes are in
// accounts/admin-openapi.ts. Request schemas are the ones the routes parse with.

const hashParam = z.object({ hash: z.string().meta({ description: "The key's hash." }) });
const idParam = z.object({ id: z.string().meta({ description: "The credential's id." }) });
const managementErrors = errorResponses("openai", [400, 401, 403, 404, 503]);

/** API keys and BYOK credentials. */
export const keyOpenApiPaths: ZodOpenApiPathsObject = {
  "/api/v1/keys": {
    post: {
      operationId: "createKey",
      tags: ["keys"],
      summary: "Create an API key",
      security: MANAGEMENT_SECURITY,
      requestBody: { required: true, content: json(createKeyBody) },
      responses: {
        "201": { description: "Created; `key` is the secret.", content: json(createdKeySchema) },
        ...managementErrors,
      },
    },
    get: {
      operationId: "listKeys",
      tags: ["keys"],
      summary: "List the account's API keys",
      security: MANAGEMENT_SECURITY,
      requestParams: { query: listKeysQuery },
      responses: {
        "200": { description: "One page of keys.", content: json(keyListSchema) },
        ...managementErrors,
      },
    },
  },
  "/api/v1/keys/{hash}": {
    get: {
      operationId: "getKey",
      tags: ["keys"],
      summary: "Get one API key",
      security: MANAGEMENT_SECURITY,
      requestParams: { path: hashParam },
      responses: {
        "200": { description: "The key.", content: json(dataOf(keySchema)) },
        ...managementErrors,
      },
    },
    patch: {
      operationId: "updateKey",
      tags: ["keys"],
      summary: "Update an API key (only the fields sent change)",
      security: MANAGEMENT_SECURITY,
      requestParams: { path: hashParam },
      requestBody: { required: true, content: json(updateKeyBody) },
      responses: {
        "200": { description: "The updated key.", content: json(dataOf(keySchema)) },
        ...managementErrors,
      },
    },
    delete: {
      operationId: "deleteKey",
      tags: ["keys"],
      summary: "Delete an API key (a second delete is a 404)",
      security: MANAGEMENT_SECURITY,
      requestParams: { path: hashParam },
      responses: { "200": { description: "Deleted.", content: json(deletedSchema) }, ...managementErrors },
    },
  },
  "/api/v1/management-keys": {
    get: {
      operationId: "listManagementKeys",
      tags: ["keys"],
      summary: "List the account's management keys (disabled and expired ones included)",
      security: MANAGEMENT_SECURITY,
      responses: {
        "200": {
          description: "Every live management key of the account.",
          content: json(managementKeyListSchema),
        },
        ...managementErrors,
      },
    },
  },
  "/api/v1/management-keys/{hash}": {
    delete: {
      operationId: "revokeManagementKey",
      tags: ["keys"],
      summary:
        "Revoke a management key: refused on every edge within a second. The account's last usable management key is a 400 (`last_management_key`): rotate it instead.",
      security: MANAGEMENT_SECURITY,
      requestParams: { path: hashParam },
      responses: { "200": { description: "Revoked.", content: json(deletedSchema) }, ...managementErrors },
    },
  },
  "/api/v1/management-keys/{hash}/rotate": {
    post: {
      operationId: "rotateManagementKey",
      tags: ["keys"],
      summary:
        "Rotate a management key: a new secret with the same name and state; the old one is refused on every edge within a second",
      security: MANAGEMENT_SECURITY,
      requestParams: { path: hashParam },
      responses: {
        "201": {
          description: "Rotated; `key` is the new secret, shown only here.",
          content: json(createdKeySchema),
        },
        ...managementErrors,
      },
    },
  },
  "/api/v1/byok": {
    post: {
      operationId: "createByokCredential",
      tags: ["byok"],
      summary: "Store a provider key for the account (sealed; never shown again)",
      security: MANAGEMENT_SECURITY,
      requestBody: { required: true, content: json(createCredentialBody) },
      responses: {
        "201": { description: "Stored.", content: json(dataOf(credentialSchema)) },
        ...managementErrors,
      },
    },
    get: {
      operationId: "listByokCredentials",
      tags: ["byok"],
      summary: "List the account's provider keys",
      security: MANAGEMENT_SECURITY,
      requestParams: { query: listCredentialsQuery },
      responses: {
        "200": { description: "One page.", content: json(credentialListSchema) },
        ...managementErrors,
      },
    },
  },
  "/api/v1/byok/{id}": {
    get: {
      operationId: "getByokCredential",
      tags: ["byok"],
      summary: "Get one provider key (masked)",
      security: MANAGEMENT_SECURITY,
      requestParams: { path: idParam },
      responses: {
        "200": { description: "The credential.", content: json(dataOf(credentialSchema)) },
        ...managementErrors,
      },
    },
    patch: {
      operationId: "updateByokCredential",
      tags: ["byok"],
      summary: "Update a provider key: name, key, disabled or position",
      security: MANAGEMENT_SECURITY,
      requestParams: { path: idParam },
      requestBody: { required: true, content: json(updateCredentialBody) },
      responses: {
        "200": { description: "Updated.", content: json(dataOf(credentialSchema)) },
        ...managementErrors,
      },
    },
    delete: {
      operationId: "deleteByokCredential",
      tags: ["byok"],
      summary: "Delete a provider key",
      security: MANAGEMENT_SECURITY,
      requestParams: { path: idParam },
      responses: { "200": { description: "Deleted.", content: json(deletedSchema) }, ...managementErrors },
    },
  },
};

/** Wallet sign-in. */
export const walletOpenApiPaths: ZodOpenApiPathsObject = {
  "/v1/x402/auth": {
    post: {
      operationId: "walletSignIn",
      tags: ["wallet"],
      summary: "Sign in with a wallet (sign-in-with-x); the account is created on first sign-in",
      description:
        "The proof comes in the `SIGN-IN-WITH-X` header (base64 JSON) or, without it, as the JSON body. " +
        "Every failure of the proof is a 401 naming the reason.",
      security: [],
      requestParams: {
        header: z.object({
          "sign-in-with-x": z.string().optional().meta({ description: "Base64 of the JSON proof." }),
        }),
      },
      requestBody: { required: false, content: json(z.union([textProof, structuredProof])) },
      responses: {
        "200": { description: "Signed in.", content: json(signInSchema) },
        ...errorResponses("openai", [401, 503]),
      },
    },
  },
};
