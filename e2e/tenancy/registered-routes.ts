import { servedRoutes } from "../served-routes.js";

/** "METHOD /path" as an app registers it, e.g. "GET /api/v1/keys/:hash". */
export type RouteName = string;

/**
 * Every route the gateway serves, read from the built apps' own routers (served-routes.ts), not from
 * their source: a route registered anywhere — app.ts, a mount helper such as the operator's catalogue
 * routes, a sub-module — is listed, so a route with no matrix row fails the completeness test. The edge
 * forwards /api/v1/keys, /api/v1/byok, /api/v1/credits, /api/v1/generation … to the owning apps, so
 * their routes are the gateway's too. Each app's own health routes appear once. The provider proxy is
 * registered once per catalogue provider id (`/openai/*path`, `/anthropic/*path`, …): one row,
 * `/{provider}/*path`, stands for all of them.
 */
export async function registeredRoutes(): Promise<Map<RouteName, string>> {
  const routes = new Map<RouteName, string>();
  const served = await servedRoutes();
  for (const [app, list] of Object.entries(served)) {
    for (const { method, path } of list) {
      const name = `${method.toUpperCase()} ${PROXY_PATH.test(path) ? "/{provider}/*path" : path}`;
      if (!routes.has(name)) routes.set(name, app);
    }
  }
  return routes;
}

/** A provider proxy registration: one bare segment (a provider id), then the native path. */
const PROXY_PATH = /^\/[a-z0-9-]+\/\*path$/;
