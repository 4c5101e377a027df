import { subscribe } from "node:diagnostics_channel";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { Counter, Histogram } from "prom-client";
import {
  type BoundCounter,
  type BoundHistogram,
  BoundSeries,
  boundCounter,
  boundHistogram,
} from "./bound.js";
import { LATENCY_BUCKETS, registry, secondsSince } from "./registry.js";

export type AppName = "edge" | "keys" | "billing" | "generations";

const requests = new Counter({
  name: "gw_http_requests_total",
  help: "HTTP requests answered, by app, surface, method, route pattern and status (closed = the client left first).",
  labelNames: ["app", "surface", "method", "route", "status"] as const,
  registers: [registry],
});

const duration = new Histogram({
  name: "gw_http_request_duration_seconds",
  help: "HTTP request duration until the response ended (a stream's whole length), by route pattern.",
  labelNames: ["app", "surface", "method", "route"] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

const counted = new BoundSeries<BoundCounter>(([app, surface, method, route, status]) =>
  boundCounter(requests, { app, surface, method, route, status }),
);
const timed = new BoundSeries<BoundHistogram>(([app, surface, method, route]) =>
  boundHistogram(duration, { app, surface, method, route }),
);

/** What express leaves on a request once a route matched it (structural: no express dependency here). */
interface RoutedRequest extends IncomingMessage {
  route?: { path?: unknown };
  baseUrl?: string;
  path?: string;
}

export interface HttpMetricsOptions {
  app: AppName;
  /** The request's surface (openai, anthropic, gemini, management…): a small fixed set. */
  surface(request: RoutedRequest): string;
  /** A route label for a request no express route matched (e.g. a forwarded prefix); bounded. */
  unrouted?(request: RoutedRequest): string | undefined;
}

const observed = new Map<number, HttpMetricsOptions>();
let subscribed = false;

/**
 * Counts and times every request the HTTP server on local `port` answers, by its route PATTERN
 * (`/v1/models/:id`), never the raw path, so the label set is the app's route table and no caller can
 * add to it. It hears requests on Node's `http.server.request.start` channel, so the app's own code
 * needs no middleware; the route express matched is read once the response closes. A request no route
 * took is `unmatched` (404) or the app's `unrouted` answer. Returns the function that stops observing.
 */
export function observeHttp(port: number, options: HttpMetricsOptions): () => void {
  observed.set(port, options);
  if (!subscribed) {
    subscribed = true;
    subscribe("http.server.request.start", onRequest);
  }
  return () => observed.delete(port);
}

interface RequestStart {
  request: RoutedRequest;
  response: ServerResponse;
  server: Server;
}

function onRequest(message: unknown): void {
  const { request, response, server } = message as RequestStart;
  const options = observed.get(portOfServer(server));
  if (!options) return;
  const startedAt = performance.now();
  response.once("close", () => {
    const route = routeOf(request, response, options);
    const surface = options.surface(request);
    const method = request.method ?? "OTHER";
    const status = response.writableFinished ? String(response.statusCode) : "closed";
    counted.get(options.app, surface, method, route, status).inc();
    timed.get(options.app, surface, method, route).observe(secondsSince(startedAt));
  });
}

/** A server's port, asked of the socket once per server rather than once per request. */
const serverPorts = new WeakMap<Server, number>();

function portOfServer(server: Server): number {
  const known = serverPorts.get(server);
  if (known !== undefined) return known;
  const address = server.address();
  const port = address !== null && typeof address === "object" ? address.port : -1;
  if (port >= 0) serverPorts.set(server, port);
  return port;
}

/** The port of a URL an app reported (`http://127.0.0.1:8081`). */
export function portOf(url: string): number {
  return Number(new URL(url).port);
}

function routeOf(request: RoutedRequest, response: ServerResponse, options: HttpMetricsOptions): string {
  const pattern = request.route?.path;
  if (pattern === undefined)
    return options.unrouted?.(request) ?? (response.statusCode === 404 ? "unmatched" : "unrouted");
  return `${request.baseUrl ?? ""}${patternLabel(pattern, request.path)}`;
}

/**
 * A route registered under several paths (`["/v1/chat/completions", "/api/v1/chat/completions"]`) is
 * labelled by the literal one the request used, else by all of them: either way a string from the
 * code, never from the caller.
 */
function patternLabel(pattern: unknown, path: string | undefined): string {
  if (typeof pattern === "string") return pattern;
  if (Array.isArray(pattern)) {
    const literal = pattern.find((candidate) => candidate === path);
    return typeof literal === "string" ? literal : pattern.map(String).join("|");
  }
  return String(pattern);
}
