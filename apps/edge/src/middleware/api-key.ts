import {
  looksLikeServiceKey,
  type Principal,
  type PrincipalResolver,
  requireKeyType,
  requireSecret,
} from "@gw/auth";
import type { Request } from "express";
import { credentialHash } from "./flood-guard.js";

/**
 * Authenticates an inference request at the top of its handler (before the body is validated, so an
 * unauthenticated caller gets 401, not a schema error). Management keys cannot call inference: 403.
 */
export async function resolveApiKey(principals: PrincipalResolver, request: Request): Promise<Principal> {
  const secret = requireSecret({ headers: request.headers, query: request.query as Record<string, unknown> });
  // The flood guard hashed this key already; an API key is then looked up by that hash (no second SHA-256).
  const hash = looksLikeServiceKey(secret) ? credentialHash(request, secret) : undefined;
  const principal = hash ? await principals.resolveHash(hash) : await principals.resolveSecret(secret);
  return requireKeyType(principal, "regular");
}
