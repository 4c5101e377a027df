import { createServer, type RequestListener, type Server, type ServerOptions } from "node:http";
import type { AddressInfo } from "node:net";

export interface Listening {
  server: Server;
  port: number;
  url: string;
  /**
   * Stops accepting and resolves once every connection is closed. Requests under way finish; with a
   * deadline, connections still open after it are cut (their handlers see the client gone).
   */
  close(deadlineMs?: number): Promise<void>;
}

/** How often a closing server drops keep-alive connections that went idle after their last response. */
const IDLE_SWEEP_MS = 250;

/**
 * Starts an express app (or any request listener in front of one); resolves once bound (port 0 picks a
 * free one). `options` are node:http's server options (the edge passes its request and response
 * classes).
 */
export function listen(
  app: RequestListener,
  host: string,
  port: number,
  options: ServerOptions = {},
): Promise<Listening> {
  return new Promise((resolve, reject) => {
    // What express's app.listen does, with the server options it cannot pass.
    const server = createServer(options, app);
    server.listen(port, host);
    server.once("error", reject);
    server.once("listening", () => {
      const bound = (server.address() as AddressInfo).port;
      const urlHost = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host;
      resolve({
        server,
        port: bound,
        url: `http://${urlHost}:${bound}`,
        close: (ms) => closeServer(server, ms),
      });
    });
  });
}

function closeServer(server: Server, deadlineMs: number | undefined): Promise<void> {
  return new Promise<void>((done) => {
    // A keep-alive connection whose request finishes after close() would otherwise stay open until
    // the client's next request or the keep-alive timeout.
    const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
    const cut =
      deadlineMs === undefined ? undefined : setTimeout(() => server.closeAllConnections(), deadlineMs);
    server.close(() => {
      clearInterval(sweep);
      clearTimeout(cut);
      done();
    });
    server.closeIdleConnections();
  });
}
