import { type PrincipalResolver, requireSecret } from "@gw/auth";
import { GatewayError } from "@gw/errors";
import type { Request, RequestHandler } from "express";
import type { Kysely } from "kysely";
import type { KeysTables } from "../../db/schema.js";
import { looksLikeOperatorToken, operatorTokenName } from "./tokens.js";

const ACTOR = Symbol("operator-actor");
type WithActor = Request & { [ACTOR]?: string };

/**
 * Only an operator token passes (`gw operator-token create`): an unknown or revoked one is a 401, and an
 * account's key (management or not) that would authenticate elsewhere is a 403: tenants never change
 * the catalogue every account is billed by, nor see or credit other accounts (accounts/admin-routes.ts).
 */
export function requireOperator(context: {
  db: Kysely<KeysTables>;
  resolver: PrincipalResolver;
}): RequestHandler {
  const authorize = async (secret: string): Promise<string> => {
    if (looksLikeOperatorToken(secret)) {
      const name = await operatorTokenName(context.db, secret);
      if (name !== undefined) return `operator:${name}`;
      throw new GatewayError("authentication", "unknown or revoked operator token", {
        code: "key_not_found",
      });
    }
    // An account's key that does not resolve keeps its usual 401; one that does is refused here.
    await context.resolver.resolveSecret(secret);
    throw new GatewayError(
      "permission",
      "the admin routes take an operator token (gw operator-token create), not an account's key",
    );
  };
  return (request, _response, next) => {
    let secret: string;
    try {
      secret = requireSecret({ headers: request.headers, query: request.query as Record<string, unknown> });
    } catch (error) {
      next(error);
      return;
    }
    authorize(secret).then((actor) => {
      (request as WithActor)[ACTOR] = actor;
      next();
    }, next);
  };
}

/** `operator:<token name>`: who is acting, for the audit trail (never the token itself). */
export function operatorActor(request: Request): string {
  const actor = (request as WithActor)[ACTOR];
  if (!actor) throw new Error("admin route without requireOperator");
  return actor;
}

/**
 * Identity's operator check as the catalogue asks for it (catalog/operators.ts's OperatorGate,
 * matched by shape: neither module imports the other for it); app.ts passes it to the catalogue.
 */
export function operatorGate(context: { db: Kysely<KeysTables>; resolver: PrincipalResolver }): {
  require: RequestHandler;
  actor(request: Request): string;
} {
  return { require: requireOperator(context), actor: operatorActor };
}
