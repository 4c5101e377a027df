import type { Request, RequestHandler } from "express";

/**
 * The one thing the catalogue needs from identity: who is an operator. The catalogue's admin routes
 * take an operator token only; identity owns the tokens and the accounts' keys, so it decides, and the
 * composition (app.ts) passes its gate in. Were the catalogue its own app, this would be a call to
 * identity's service instead, and nothing else here would change.
 */
export interface OperatorGate {
  /** Middleware: passes an operator's request, refuses anything else (401 unknown token, 403 a tenant's key). */
  require: RequestHandler;
  /** `operator:<token name>` of a request `require` passed: who acted, for the audit trail. */
  actor(request: Request): string;
}
