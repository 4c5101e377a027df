import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createTcpServer, type Socket } from "node:net";

// Real local servers for the media fetcher's hostile suite: each records what reached it, so a test can
// prove a refused fetch never connected, and closes every socket it opened when the test ends.

export interface RecordingServer {
  host: string;
  port: number;
  /** `http://host:port`, with IPv6 brackets. */
  origin: string;
  /** Every request that reached it: path and headers, in order. */
  requests: { path: string; headers: IncomingHttpHeaders }[];
  close(): Promise<void>;
}

export type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/** An HTTP server on `host` (default 127.0.0.1) and `port` (default any free one). */
export function serveHttp(handler: Handler, host = "127.0.0.1", port = 0): Promise<RecordingServer> {
  const requests: RecordingServer["requests"] = [];
  const server = createServer((request, response) => {
    requests.push({ path: request.url ?? "", headers: request.headers });
    handler(request, response);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      const address = server.address();
      const bound = typeof address === "object" && address !== null ? address.port : port;
      resolve({
        host,
        port: bound,
        origin: `http://${host.includes(":") ? `[${host}]` : host}:${bound}`,
        requests,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

/** A TCP server that writes whatever `onConnection` writes: for responses no HTTP server would send. */
export function serveRaw(
  onConnection: (socket: Socket) => void,
  host = "127.0.0.1",
): Promise<RecordingServer & { connections: number }> {
  const sockets = new Set<Socket>();
  const state = { connections: 0 };
  const server = createTcpServer((socket) => {
    state.connections++;
    sockets.add(socket);
    socket.on("error", () => {});
    socket.on("close", () => sockets.delete(socket));
    onConnection(socket);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      resolve({
        host,
        port,
        origin: `http://${host}:${port}`,
        requests: [],
        get connections() {
          return state.connections;
        },
        close: () =>
          new Promise((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}

/**
 * Writes `total` bytes in `chunk`-sized pieces, honouring backpressure, and counts what the socket took:
 * a reader that stops at its cap leaves most of it unwritten.
 */
export function stream(response: ServerResponse, total: number, chunk = 64 * 1024): { written(): number } {
  let written = 0;
  const piece = Buffer.alloc(chunk, 0x61);
  const pump = () => {
    while (written < total && !response.destroyed) {
      const size = Math.min(chunk, total - written);
      written += size;
      if (!response.write(size === chunk ? piece : piece.subarray(0, size)))
        return void response.once("drain", pump);
    }
    if (written >= total) response.end();
  };
  response.on("error", () => {});
  pump();
  return { written: () => written };
}
