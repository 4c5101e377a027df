import type { Server } from "node:http";
import { observeHttp } from "@gw/metrics";
import { errorShape } from "./pipeline/error-shape.js";

/**
 * The prefixes the edge forwards to the control plane (app.ts's pass-throughs): a forwarded request
 * matches no edge route, so it is labelled by its prefix. The control-plane app it reaches labels it
 * by its own route pattern.
 */
const FORWARDED = [
  "/api/v1/keys",
  "/api/v1/byok",
  "/api/v1/models",
  "/api/v1/credits",
  "/api/v1/generation",
  "/v1/x402/auth",
];

function forwardedPrefix(path: string): string | undefined {
  return FORWARDED.find((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

/** Counts the edge's requests per route pattern and surface (the error shape the caller speaks, or management). */
export function observeEdgeHttp(server: Server): () => void {
  const address = server.address();
  const port = address !== null && typeof address === "object" ? address.port : 0;
  return observeHttp(port, {
    app: "edge",
    surface: (request) => {
      const path = request.path ?? "";
      if (forwardedPrefix(path) !== undefined) return "management";
      return errorShape({ path, headers: request.headers });
    },
    unrouted: (request) => {
      const prefix = forwardedPrefix(request.path ?? "");
      return prefix === undefined ? undefined : `${prefix}/*`;
    },
  });
}
