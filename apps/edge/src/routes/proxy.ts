import { PROVIDERS } from "@gw/catalog";
import { GatewayError } from "@gw/errors";
import type { Request, Response } from "express";
import { resolveApiKey } from "../middleware/api-key.js";
import type { EdgeContext } from "../pipeline/edge-context.js";
import { type ProxyInference, serveProxy } from "../pipeline/proxy.js";
import { forwardedRequestHeaders, withoutKeyParam } from "../pipeline/proxy-headers.js";
import { startRequest } from "../pipeline/serve.js";
import type { Route } from "./route.js";

/**
 * `POST /{provider}/{path}` (and `GET`, for read-only native endpoints such as `/openai/v1/models`): the
 * caller's native request, forwarded with the gateway's credential. Registered last and only under the
 * catalogue's provider ids, so it can never shadow `/v1`, `/v1beta`, `/api` or the health routes; any
 * other first segment stays a 404.
 */
export function proxyRoutes(context: EdgeContext): Route[] {
  const ids = new Set(PROVIDERS.map((provider) => provider.id));
  const paths = [...ids].map((id) => `/${id}/*path`);
  const handler = (method: ProxyInference["method"]) => async (request: Request, response: Response) => {
    const providerId = providerOf(request, ids);
    const start = startRequest(context, response);
    const principal = await resolveApiKey(context.principals, request);
    if (method === "POST" && !request.is(["application/json", "application/*+json"])) {
      throw new GatewayError("invalid_request", "the provider proxy forwards JSON request bodies only", {
        code: "unsupported_content_type",
      });
    }
    await serveProxy(
      context,
      {
        start,
        principal,
        providerId,
        method,
        path: withoutKeyParam(request.originalUrl.slice(providerId.length + 1)),
        headers: forwardedRequestHeaders(request.headers),
        body: request.body,
      },
      response,
    );
  };
  return [
    { method: "post", path: paths, handlers: [handler("POST")] },
    { method: "get", path: paths, handlers: [handler("GET")] },
  ];
}

/**
 * The provider id as the client wrote it, exactly: express matches routes case-insensitively, but
 * `/OPENAI/…` names no provider (404). An absolute-form request target (`POST http://host/openai/…`) is
 * refused: the native path is cut from the target as sent, and a proxy has no business with other hosts.
 */
function providerOf(request: Request, ids: ReadonlySet<string>): string {
  if (!request.originalUrl.startsWith("/")) {
    throw new GatewayError("invalid_request", "the request target must be a path (origin-form)", {
      code: "invalid_path",
    });
  }
  const providerId = request.originalUrl.split(/[/?]/)[1] ?? "";
  if (!ids.has(providerId)) {
    throw new GatewayError("not_found", `no route for ${request.method} ${request.path}`, {
      code: "route_not_found",
    });
  }
  return providerId;
}
