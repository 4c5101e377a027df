import { type Principal, type PrincipalResolver, requireKeyType, requireSecret } from "@gw/auth";
import type { Request } from "express";

/**
 * Authenticates an inference request inside the handler rather than as middleware, because the hot
 * path validates the body first (a malformed request is a 400 whoever sends it). Management keys
 * cannot call inference: 403.
 */
export async function resolveApiKey(principals: PrincipalResolver, request: Request): Promise<Principal> {
  const secret = requireSecret({ headers: request.headers, query: request.query as Record<string, unknown> });
  return requireKeyType(await principals.resolveSecret(secret), "regular");
}
