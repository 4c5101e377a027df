import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "@gw/testing";

/** "METHOD /path" as an app registers it, e.g. "GET /api/v1/keys/:hash". */
export type RouteName = string;

const CONTROL_PLANE_APPS = ["keys", "billing", "generations"] as const;

/**
 * Every route the gateway serves, read from where the apps register them: the control-plane apps'
 * `app.<method>("<path>", …)` calls in their app.ts, and the edge's route list (one file per endpoint
 * under apps/edge/src/routes, each returning `{ method, path }` objects; a path is a literal, a
 * template on the file's `BASE` constant, or an array of literals). The edge forwards /api/v1/keys,
 * /api/v1/byok, /api/v1/credits, /api/v1/generation … to the owning apps, so their routes are the
 * gateway's too. A registration this reader cannot understand throws rather than being missed.
 */
export function registeredRoutes(): Map<RouteName, string> {
  const routes = new Map<RouteName, string>();
  for (const app of CONTROL_PLANE_APPS) {
    const file = join(repoRoot(), "apps", app, "src", "app.ts");
    for (const route of controlPlaneRoutes(readFileSync(file, "utf8"))) routes.set(route, app);
  }
  const folder = join(repoRoot(), "apps", "edge", "src", "routes");
  for (const name of readdirSync(folder)) {
    if (!name.endsWith(".ts") || name.includes(".test.")) continue;
    for (const route of edgeRoutes(readFileSync(join(folder, name), "utf8"), name))
      routes.set(route, `edge:${name}`);
  }
  return routes;
}

export function controlPlaneRoutes(source: string): RouteName[] {
  const routes: RouteName[] = [];
  for (const match of source.matchAll(/\bapp\.(get|post|put|patch|delete)\(\s*([^,]+),/g)) {
    const [, method = "", path = ""] = match;
    const literal = /^"([^"]+)"$/.exec(path.trim())?.[1];
    if (literal === undefined) throw new Error(`unreadable route registration: app.${method}(${path}`);
    routes.push(`${method.toUpperCase()} ${literal}`);
  }
  return routes;
}

export function edgeRoutes(source: string, file: string): RouteName[] {
  const base = /const BASE = "([^"]+)"/.exec(source)?.[1];
  const routes: RouteName[] = [];
  for (const match of source.matchAll(
    /method:\s*"(get|post|delete)",\s*path:\s*(\[[^\]]*\]|"[^"]*"|`[^`]*`|\w+)/g,
  )) {
    const [, method = "", path = ""] = match;
    for (const one of edgePaths(path, base, file)) routes.push(`${method.toUpperCase()} ${one}`);
  }
  return routes;
}

function edgePaths(expression: string, base: string | undefined, file: string): string[] {
  if (expression.startsWith("[")) {
    return [...expression.matchAll(/"([^"]+)"/g)].map((match) => match[1] ?? "");
  }
  if (expression.startsWith('"')) return [expression.slice(1, -1)];
  if (expression === "BASE" && base !== undefined) return [base];
  if (expression.startsWith("`") && base !== undefined) {
    return [expression.slice(1, -1).replace(/\$\{BASE\}/, base)];
  }
  // The provider proxy's paths are built from the catalogue's provider ids at start-up.
  if (file === "proxy.ts" && expression === "paths") return ["/{provider}/*path"];
  throw new Error(`unreadable edge route path in ${file}: ${expression}`);
}
