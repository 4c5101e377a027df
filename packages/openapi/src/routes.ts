import type { OpenApiDocument } from "./document.js";

/** One method and path an express app registered. */
export interface RegisteredRoute {
  method: string;
  path: string;
}

/** The part of an express 5 app (or router) this module reads: its layer stack. */
export interface RouterLike {
  stack: ReadonlyArray<{ route?: unknown }>;
}

interface RouteLayer {
  path: string | string[];
  methods: Record<string, boolean | undefined>;
}

function isRoute(route: unknown): route is RouteLayer {
  if (typeof route !== "object" || route === null) return false;
  const { path, methods } = route as Partial<RouteLayer>;
  return (typeof path === "string" || Array.isArray(path)) && typeof methods === "object" && methods !== null;
}

/**
 * Every route registered on an express 5 app, read from its router: what the app actually serves, so a
 * route added without a document entry shows up here. Middleware layers (no route) are skipped.
 */
export function registeredRoutes(app: { router: RouterLike }): RegisteredRoute[] {
  const routes: RegisteredRoute[] = [];
  for (const { route } of app.router.stack) {
    if (!isRoute(route)) continue;
    const paths = Array.isArray(route.path) ? route.path : [route.path];
    for (const [method, on] of Object.entries(route.methods)) {
      if (on) for (const path of paths) routes.push({ method, path });
    }
  }
  return routes;
}

/**
 * The express spelling of an OpenAPI path: `{name}` → `:name`. Operations whose express route cannot
 * be spelt in OpenAPI (wildcards such as `/v1beta/models/*rest`) name it in `x-express-routes`.
 */
export function expressPath(openApiPath: string): string {
  return openApiPath.replace(/\{([A-Za-z0-9_]+)\}/g, ":$1");
}

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"] as const;

/** `METHOD path` for every express route the document describes. */
export function documentedRoutes(document: OpenApiDocument): Set<string> {
  const documented = new Set<string>();
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      documented.add(`${method} ${expressPath(path)}`);
      const extra: unknown = operation["x-express-routes"];
      if (Array.isArray(extra)) for (const route of extra) documented.add(`${method} ${String(route)}`);
    }
  }
  return documented;
}

/** Routes an app registers that the document does not describe (`METHOD path` each). */
export function undocumentedRoutes(routes: RegisteredRoute[], document: OpenApiDocument): string[] {
  const documented = documentedRoutes(document);
  return routes.map((route) => `${route.method} ${route.path}`).filter((route) => !documented.has(route));
}

/**
 * Operations of the document that no registered route serves (`METHOD path` each): an entry left behind
 * when a route was removed or renamed. An operation is served when its own path, spelt the express way,
 * or one of its `x-express-routes` is registered under its method.
 */
export function unservedOperations(routes: RegisteredRoute[], document: OpenApiDocument): string[] {
  const registered = new Set(routes.map((route) => `${route.method} ${route.path}`));
  const unserved: string[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const extra: unknown = operation["x-express-routes"];
      const spellings = [expressPath(path), ...(Array.isArray(extra) ? extra.map(String) : [])];
      if (!spellings.some((spelling) => registered.has(`${method} ${spelling}`)))
        unserved.push(`${method} ${path}`);
    }
  }
  return unserved;
}
