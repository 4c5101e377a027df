import createClient, { type Client, type Middleware } from "openapi-fetch";
import type { paths } from "./schema.js";

export type { components, operations, paths } from "./schema.js";

/** A typed client of the gateway's REST API: paths, parameters, bodies and answers from the document. */
export type GatewayClient = Client<paths>;

export interface GatewayClientOptions {
  /** The edge's base URL, e.g. https://gateway.example.com (management routes are forwarded there). */
  baseUrl: string;
  /** A management key for keys, BYOK and credits; an API key (or wallet JWT) for the rest. */
  key: string;
  /** Default: the global fetch. */
  fetch?: typeof globalThis.fetch;
}

/**
 * The dashboards' client: `client.GET("/api/v1/keys")`, `client.POST("/api/v1/keys", { body })`, … with
 * every path, parameter and answer typed from the OpenAPI document (`pnpm openapi` regenerates it).
 * Errors are answers too: `{ data, error, response }`, `error` typed as the route's error body.
 */
export function createGatewayClient(options: GatewayClientOptions): GatewayClient {
  const client = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  client.use(bearer(options.key));
  return client;
}

/** Sets the credential per request, so the key never sits in a shared default-headers object. */
function bearer(key: string): Middleware {
  return {
    onRequest({ request }) {
      request.headers.set("authorization", `Bearer ${key}`);
      return request;
    },
  };
}
