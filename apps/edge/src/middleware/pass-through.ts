import type { IncomingMessage, ServerResponse } from "node:http";
import { GatewayError, openAiErrorBody } from "@gw/errors";
import { CLIENT_ADDRESS_HTTP_HEADER, SERVICE_TOKEN_HTTP_HEADER as SERVICE_TOKEN_HEADER } from "@gw/http";
import type { Logger } from "@gw/logger";
import type { RequestHandler } from "express";
import { createProxyMiddleware } from "http-proxy-middleware";

export interface PassThroughTarget {
  /** Named in the 503 when the app cannot be reached. */
  name: string;
  url: string;
  /** Path prefixes this app owns. */
  paths: string[];
  /** Called with each answered request and the owner's status, before the response reaches the client. */
  onResponse?: (request: IncomingMessage, status: number) => void;
  /** The edge's service token for this app, sent on every forwarded request; absent in tests. */
  serviceToken?: (() => Promise<string>) | undefined;
  /**
   * The client's address as this edge determines it (TRUSTED_PROXIES), sent to the owner in
   * CLIENT_ADDRESS_HTTP_HEADER for its per-address limits (account creation).
   */
  clientAddress: (request: IncomingMessage) => string;
}

const PROXY_TIMEOUT_MS = 30_000;

/**
 * Forwards a control-plane route to the app that owns it (keys, billing, generations) unchanged:
 * method, headers (Authorization included), body bytes and the app's status and body. It is mounted
 * before body parsing so the body streams through untouched. An unreachable app is a 503 in our
 * envelope, never a hung request or an HTML error.
 */
export function passThrough(target: PassThroughTarget, logger: Logger): RequestHandler {
  const unavailable = new GatewayError("service_unavailable", `${target.name} is unavailable`, {
    code: "dependency_unavailable",
  });
  const proxy = createProxyMiddleware({
    target: target.url,
    pathFilter: target.paths,
    xfwd: true,
    proxyTimeout: PROXY_TIMEOUT_MS,
    on: {
      proxyRes: (proxyResponse, request) => {
        target.onResponse?.(request, proxyResponse.statusCode ?? 0);
      },
      error: (error, _request, response) => {
        logger.warn({ err: error, target: target.name }, "pass-through failed");
        if (!isResponse(response)) {
          response.destroy();
          return;
        }
        if (response.headersSent) {
          response.destroy();
          return;
        }
        response.writeHead(unavailable.status, { "content-type": "application/json; charset=utf-8" });
        response.end(JSON.stringify(openAiErrorBody(unavailable)));
      },
    },
  });
  const owns = ownsPath(target.paths);
  const escapeRefused = new GatewayError(
    "invalid_request",
    "the path may not contain dot segments or encoded slashes",
  );
  return (request, response, next) => {
    // http-proxy-middleware parses the URL and matches every path filter on each request; most
    // requests (inference) belong to none of the control-plane apps and skip it on a prefix check.
    if (!owns(request.url)) {
      next();
      return;
    }
    // The owner could read such a path as one outside the prefix this check matched it on.
    if (mayEscape(request.url)) {
      next(escapeRefused);
      return;
    }
    const forward = (): void => {
      void proxy(request, response, (error?: unknown) => {
        // The error listener above has already answered; anything else continues down the chain.
        if (error === undefined) next();
        else if (!response.headersSent) next(unavailable);
      });
    };
    // The proxy copies request.headers: a token the client sent is dropped, only the edge's goes on.
    delete request.headers[SERVICE_TOKEN_HEADER];
    // Likewise the client address: never the caller's own claim, always the edge's finding.
    request.headers[CLIENT_ADDRESS_HTTP_HEADER] = target.clientAddress(request);
    if (!target.serviceToken) {
      forward();
      return;
    }
    // Resolves at once from the issuer's cache except about once per token lifetime.
    target.serviceToken().then(
      (token) => {
        request.headers[SERVICE_TOKEN_HEADER] = token;
        forward();
      },
      () => next(unavailable),
    );
  };
}

/**
 * A cheap superset of the proxy's own path filter: an origin-form URL (`/path?query`) whose path
 * starts with a prefix also starts with it as a string. Any other form is left to the proxy to judge.
 */
function ownsPath(prefixes: readonly string[]): (url: string) => boolean {
  return (url) => !url.startsWith("/") || prefixes.some((prefix) => url.startsWith(prefix));
}

/**
 * Whether a path could leave its prefix for a server that decodes or normalises it: a dot segment
 * (`..`, `%2e%2e`), an encoded slash or backslash (`%2f`, `%5c`), or a backslash, anywhere before the
 * query. The proxy's own filter resolves plain and `%2e` dot segments and then finds no owner (404);
 * encoded slashes it would forward as they are.
 */
export function mayEscape(url: string): boolean {
  const path = url.split("?", 1)[0] ?? "";
  if (/%2f|%5c|\\/i.test(path)) return true;
  return path.split("/").some((segment) => {
    const decoded = segment.replace(/%2e/gi, ".");
    return decoded === "." || decoded === "..";
  });
}

function isResponse(value: unknown): value is ServerResponse {
  return typeof value === "object" && value !== null && "writeHead" in value;
}
