import type { oas31 } from "zod-openapi";

// Every way a caller proves who it is (packages/auth/src/credentials.ts reads them in this order:
// Authorization: Bearer, x-api-key, x-goog-api-key, then the `key` query parameter).

export const SECURITY_SCHEMES = {
  apiKey: {
    type: "http",
    scheme: "bearer",
    description: "An API key (`sk-gw-…`) in `Authorization: Bearer`. Inference and key-info routes.",
  },
  managementKey: {
    type: "http",
    scheme: "bearer",
    description: "A management key in `Authorization: Bearer`: manages the account's keys, BYOK and credits.",
  },
  operatorToken: {
    type: "http",
    scheme: "bearer",
    description:
      "The gateway operator's token (`gw_op_…`, from `gw operator-token create`) in `Authorization: Bearer`: " +
      "changes the model catalogue. An account's keys are refused (403).",
  },
  walletJwt: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description: "The JWT returned by `POST /v1/x402/auth` (wallet sign-in), used like an API key.",
  },
  xApiKey: {
    type: "apiKey",
    in: "header",
    name: "x-api-key",
    description: "An API key in Anthropic's header (the Anthropic SDK sends it).",
  },
  googApiKey: {
    type: "apiKey",
    in: "header",
    name: "x-goog-api-key",
    description: "An API key in Google's header (the @google/genai SDK sends it).",
  },
  googKeyQuery: {
    type: "apiKey",
    in: "query",
    name: "key",
    description: "An API key in Google's `key` query parameter.",
  },
} satisfies Record<string, oas31.SecuritySchemeObject>;

export type SecuritySchemeName = keyof typeof SECURITY_SCHEMES;

/** Alternatives: any one of the named schemes authenticates the call. */
export function anyOf(...names: SecuritySchemeName[]): oas31.SecurityRequirementObject[] {
  return names.map((name) => ({ [name]: [] }));
}

/** Inference routes accept an API key or a wallet's JWT, in any of the headers the SDKs send. */
export const INFERENCE_SECURITY = anyOf("apiKey", "walletJwt", "xApiKey", "googApiKey", "googKeyQuery");
export const MANAGEMENT_SECURITY = anyOf("managementKey");
/** The catalogue admin routes: the operator's token only, never an account's key. */
export const OPERATOR_SECURITY = anyOf("operatorToken");
/** Routes any key of the account may call (management or API key, or a wallet JWT). */
export const ANY_KEY_SECURITY = anyOf("apiKey", "managementKey", "walletJwt", "xApiKey", "googApiKey");
