import type { NextFunction, Request, RequestHandler, Response } from "express";
import { requireSecret } from "./credentials.js";
import { type Principal, requireKeyType } from "./principal.js";
import type { PrincipalResolver } from "./resolver.js";

const PRINCIPAL = Symbol("principal");

type WithPrincipal = Request & { [PRINCIPAL]?: Principal };

/**
 * Express middleware: authenticates the request and requires the given key type. Errors are passed to
 * `next` so each app renders them in its own error shape.
 */
export function authenticate(
  resolver: PrincipalResolver,
  kind: "management" | "regular" | "any",
): RequestHandler {
  return (request: Request, _response: Response, next: NextFunction) => {
    let secret: string;
    try {
      secret = requireSecret({ headers: request.headers, query: request.query as Record<string, unknown> });
    } catch (error) {
      next(error);
      return;
    }
    resolver.resolveSecret(secret).then(
      (principal) => {
        try {
          if (kind !== "any") requireKeyType(principal, kind);
        } catch (error) {
          next(error);
          return;
        }
        (request as WithPrincipal)[PRINCIPAL] = principal;
        next();
      },
      (error: unknown) => next(error),
    );
  };
}

export function principalOf(request: Request): Principal {
  const principal = (request as WithPrincipal)[PRINCIPAL];
  if (!principal) throw new Error("principalOf called on a route without the authenticate middleware");
  return principal;
}
