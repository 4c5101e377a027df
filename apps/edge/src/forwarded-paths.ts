/**
 * The path prefixes the edge forwards unchanged to the control-plane app that owns them (app.ts mounts
 * one pass-through per app from this table; http-metrics.ts labels forwarded requests from it). One
 * table, so a prefix cannot be forwarded and yet counted as unrouted.
 *
 * A prefix matches a path that starts with it as a string (the proxy's own rule): `/api/v1/generation`
 * also takes `/api/v1/generations`, which is listed anyway so that it is labelled by its own name.
 */
export const FORWARDED_PATHS = {
  keys: [
    "/api/v1/keys",
    "/api/v1/management-keys",
    "/api/v1/byok",
    "/api/v1/models",
    "/api/v1/admin/catalog",
    "/api/v1/admin/accounts",
    "/v1/x402/auth",
  ],
  billing: ["/api/v1/credits"],
  generations: ["/api/v1/generations", "/api/v1/generation", "/api/v1/activity"],
} as const satisfies Record<"keys" | "billing" | "generations", readonly string[]>;

export type ControlPlaneApp = keyof typeof FORWARDED_PATHS;

const ALL: readonly string[] = Object.values(FORWARDED_PATHS).flat();

/** The forwarded prefix a path is (`/api/v1/keys`) or is under (`/api/v1/keys/abc`), if any. */
export function forwardedPrefix(path: string): string | undefined {
  return ALL.find((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}
