import { type Principal, type PrincipalResolver, requireKeyType, requireSecret } from "@gw/auth";
import type { Request } from "express";

/**
 * Authenticates an inference request at the top of its handler (before the body is validated, so an
 * unauthenticated caller gets 401, not a schema error). Management keys cannot call inference: 403.
 */
export async function resolveApiKey(principals: PrincipalResolver, request: Request): Promise<Principal> {
  const secret = requireSecret({ headers: request.headers, query: request.query as Record<string, unknown> });
  return requireKeyType(await principals.resolveSecret(secret), "regular");
}
