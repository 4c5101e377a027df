import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { enableDefaultMetrics, registry } from "./registry.js";

export interface MetricsListener {
  server: Server;
  port: number;
  url: string;
  close(): Promise<void>;
}

type WarnLogger = { warn(obj: object, message: string): void };

/**
 * Serves `GET /metrics` on its own port (METRICS_PORT), apart from the app's HTTP port: the edge's
 * HTTP port is the tenants' entrance, and what its series say (traffic per route, provider failure
 * rates, lag) is the operator's business. The port is meant for the cluster network (the Prometheus
 * scraper), never for a public load balancer. Nothing else is served on it.
 */
export function serveMetrics(host: string, port: number, logger?: WarnLogger): Promise<MetricsListener> {
  enableDefaultMetrics();
  const server = createServer((request, response) => {
    answer(request, response, logger);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      const bound = (server.address() as AddressInfo).port;
      const urlHost = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host;
      resolve({
        server,
        port: bound,
        url: `http://${urlHost}:${bound}/metrics`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

function answer(request: IncomingMessage, response: ServerResponse, logger?: WarnLogger): void {
  const path = (request.url ?? "/").split("?")[0];
  if (path !== "/metrics") {
    plain(response, 404, "not found: this port serves GET /metrics only\n");
    return;
  }
  if (request.method !== "GET" && request.method !== "HEAD") {
    response.setHeader("Allow", "GET, HEAD");
    plain(response, 405, "method not allowed\n");
    return;
  }
  registry.metrics().then(
    (text) => {
      response.writeHead(200, { "Content-Type": registry.contentType, "Cache-Control": "no-store" });
      response.end(request.method === "HEAD" ? undefined : text);
    },
    (error: unknown) => {
      logger?.warn({ err: error }, "metrics collection failed");
      plain(response, 500, "metrics collection failed\n");
    },
  );
}

function plain(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { "Content-Type": "text/plain; charset=utf-8" });
  response.end(text);
}
