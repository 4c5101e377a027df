import { createGatewayClient, type GatewayClient } from "@gw/client";
import { createContext, type ReactNode, useContext, useMemo } from "react";
import { ApiError, problemFromNetworkError, problemFromResponse } from "./errors";

const ApiContext = createContext<GatewayClient | null>(null);

/** The typed client of the public API at the page's own origin, sending `credential` as the bearer. */
export function consoleClient(credential: string, onUnauthorized?: () => void): GatewayClient {
  const client = createGatewayClient({ baseUrl: window.location.origin, key: credential });
  if (onUnauthorized) {
    client.use({
      onResponse({ response }) {
        if (response.status === 401) onUnauthorized();
        return response;
      },
    });
  }
  return client;
}

/**
 * Gives the pages one client bound to the session's credential. A 401 from any call means the credential
 * no longer works (revoked, expired): `onUnauthorized` ends the session and the router sends the user to
 * the sign-in page with the contract's message.
 */
export function ApiProvider(props: { credential: string; onUnauthorized: () => void; children: ReactNode }) {
  const { credential, onUnauthorized } = props;
  const client = useMemo(() => consoleClient(credential, onUnauthorized), [credential, onUnauthorized]);
  return <ApiContext.Provider value={client}>{props.children}</ApiContext.Provider>;
}

/** The session's client; only inside the signed-in layout. */
export function useApi(): GatewayClient {
  const client = useContext(ApiContext);
  if (client === null) throw new Error("useApi() outside <ApiProvider>: only signed-in pages call the API");
  return client;
}

interface FetchResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/**
 * The answer's data, or an ApiError carrying the API's message, status, reason, field and Retry-After.
 * `const { data } = await unwrap(api.GET("/api/v1/keys"))`.
 */
export async function unwrap<T>(request: Promise<FetchResult<T>>): Promise<T> {
  let result: FetchResult<T>;
  try {
    result = await request;
  } catch (cause) {
    throw new ApiError(problemFromNetworkError(cause));
  }
  if (result.response.ok) return result.data as T;
  throw new ApiError(problemFromResponse(result.response.status, result.response.headers, result.error));
}
