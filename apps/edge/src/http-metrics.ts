import type { Server } from "node:http";
import { observeHttp } from "@gw/metrics";
import { CONSOLE_PATH } from "./console/index.js";
import { forwardedPrefix } from "./forwarded-paths.js";
import { errorShape } from "./pipeline/error-shape.js";

/**
 * The web console's files (console/serve.ts): one label for all of them, whatever the path asked. Its
 * router answers with the mount stripped from the request's path (kept in baseUrl), so both are read.
 */
function isConsole(request: { baseUrl?: string; path?: string }): boolean {
  const path = `${request.baseUrl ?? ""}${request.path ?? ""}`;
  return path === CONSOLE_PATH || path.startsWith(`${CONSOLE_PATH}/`);
}

/**
 * Counts the edge's requests per route pattern and surface (the error shape the caller speaks,
 * management, or console).
 */
export function observeEdgeHttp(server: Server): () => void {
  const address = server.address();
  const port = address !== null && typeof address === "object" ? address.port : 0;
  return observeHttp(port, {
    app: "edge",
    surface: (request) => {
      const path = request.path ?? "";
      if (forwardedPrefix(path) !== undefined) return "management";
      if (isConsole(request)) return "console";
      return errorShape({ path, headers: request.headers });
    },
    // A forwarded request matches no edge route: it is labelled by its prefix (forwarded-paths.ts).
    // The control-plane app it reaches labels it by its own route pattern.
    // The console's files are served by middleware, not routes: one label, never the caller's path.
    unrouted: (request) => {
      if (isConsole(request)) return `${CONSOLE_PATH}/*`;
      const prefix = forwardedPrefix(request.path ?? "");
      return prefix === undefined ? undefined : `${prefix}/*`;
    },
  });
}
