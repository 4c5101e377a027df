import { randomUUID } from "node:crypto";
import type { Request, Response } from "express";

/**
 * A caller's own id is kept when it is a sane token (what proxies and SDKs send: UUIDs, `req_…`, hex);
 * anything else (too long, spaces, control characters, header-splitting attempts) is replaced, so a
 * logged or echoed id is never attacker-shaped.
 */
const SANE_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/**
 * Every response carries `x-request-id` (the caller's, when sane, else a new one); on the Anthropic
 * surface also `request-id`, the header Anthropic's SDK reads into `request_id`. Returns the id.
 */
export function assignRequestId(request: Request, response: Response): string {
  const offered = request.headers["x-request-id"];
  const id =
    typeof offered === "string" && SANE_ID.test(offered)
      ? offered
      : `req_${randomUUID().replaceAll("-", "")}`;
  response.setHeader("x-request-id", id);
  if (anthropicSurface(request)) response.setHeader("request-id", id);
  return id;
}

/**
 * The Anthropic surface as pipeline/error-shape.ts tells it (a layer above this one): `/v1/messages` and
 * below, and the model list asked with Anthropic's version header.
 */
function anthropicSurface(request: Request): boolean {
  const path = request.path;
  if (path === "/v1/messages" || path.startsWith("/v1/messages/")) return true;
  return path.startsWith("/v1/models") && request.headers["anthropic-version"] !== undefined;
}
