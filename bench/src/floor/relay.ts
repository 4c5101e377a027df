import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type Dispatcher, Pool } from "undici";

/**
 * The node floor: the least any Node edge in this stack does for one proxied request, and nothing more:
 * `node:http` accepts and parses the request, the body is read as Buffers, undici's `dispatch` sends it
 * to the upstream over a keep-alive pool, and the answer's status, content type and bytes are written
 * back as they arrive (one `write` per upstream read, backpressure through pause/resume). No routing, no
 * JSON, no authentication, admission, usage or logging. Its CPU per request and live heap per open stream
 * on this machine bound from below what the edge can reach with `node:http` and undici: a target below
 * the floor is out of reach for any edge written on this stack here.
 */
export async function startFloorRelay(host: string, port: number, upstreamUrl: string): Promise<FloorRelay> {
  const upstream = new URL(upstreamUrl);
  // No connection limit, as the edges' pools: a stream holds its upstream connection for its whole length.
  const pool = new Pool(upstream.origin, {
    pipelining: 1,
    keepAliveTimeout: 60_000,
    headersTimeout: 60_000,
    bodyTimeout: 0,
  });
  const server = createServer({ keepAliveTimeout: 60_000 }, (request, response) =>
    relay(pool, request, response),
  );
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const address = server.address() as AddressInfo;
  return { url: `http://${host}:${address.port}`, close: () => close(server, pool) };
}

export interface FloorRelay {
  url: string;
  close(): Promise<void>;
}

function relay(pool: Pool, request: IncomingMessage, response: ServerResponse): void {
  if (request.url === "/healthz") {
    response.writeHead(200, { "content-type": "application/json" }).end("{}");
    return;
  }
  const parts: Buffer[] = [];
  request.on("data", (part: Buffer) => parts.push(part));
  request.once("end", () => {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (request.headers.authorization) headers.authorization = request.headers.authorization;
    pool.dispatch(
      {
        method: request.method === "GET" ? "GET" : "POST",
        path: request.url ?? "/",
        headers,
        body: parts.length === 1 ? parts[0] : Buffer.concat(parts),
      },
      new RelayHandler(request, response),
    );
  });
}

/** undici's dispatch callbacks writing straight into the caller's response. */
class RelayHandler implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | undefined;
  private callerGone = false;

  constructor(
    request: IncomingMessage,
    private readonly response: ServerResponse,
  ) {
    // The caller hung up: stop the upstream call too (the open-streams scenario ends this way), also one
    // still waiting for a connection, which would otherwise stream to nobody once it got one.
    response.once("close", () => {
      if (response.writableFinished) return;
      this.callerGone = true;
      this.controller?.abort(new Error("caller closed"));
    });
    response.on("drain", () => this.controller?.resume());
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.callerGone) controller.abort(new Error("caller closed"));
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    const type = headers["content-type"];
    this.response.writeHead(statusCode, typeof type === "string" ? { "content-type": type } : {});
    this.response.flushHeaders();
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (!this.response.write(chunk)) controller.pause();
  }

  onResponseEnd(): void {
    this.response.end();
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, _error: Error): void {
    if (this.response.headersSent) this.response.destroy();
    else this.response.writeHead(502, { "content-type": "application/json" }).end('{"error":"upstream"}');
  }
}

async function close(server: Server, pool: Pool): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await pool.destroy();
}
