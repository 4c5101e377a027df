import { authenticate, principalOf } from "@gw/auth";
import { dependencyError } from "@gw/rpc";
import type { Request, Response } from "express";
import type { EdgeContext } from "../pipeline/edge-context.js";
import { keyInfo } from "../usage/key-info.js";
import type { Route } from "./route.js";

/**
 * GET /v1/key (alias /api/v1/key): the calling key's limits and spend, served by the edge from the
 * cached principal plus one GetUsage call. Any key type may ask about itself.
 */
export function keyRoute(context: EdgeContext): Route {
  const handler = async (request: Request, response: Response): Promise<void> => {
    const principal = principalOf(request);
    let usage: Awaited<ReturnType<EdgeContext["billing"]["getUsage"]>>;
    try {
      usage = await context.billing.getUsage({ accountId: principal.accountId, keyHash: principal.keyHash });
    } catch (error) {
      throw dependencyError("billing service", error);
    }
    response.json({ data: keyInfo(principal, usage) });
  };
  return {
    method: "get",
    path: ["/v1/key", "/api/v1/key"],
    handlers: [authenticate(context.principals, "any"), handler],
  };
}
