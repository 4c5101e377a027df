import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Express } from "express";

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

/** Starts an express app; resolves once bound (port 0 picks a free one). */
export function listen(app: Express, host: string, port: number): Promise<Listening> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host);
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
