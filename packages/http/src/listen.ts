import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Express } from "express";

export interface Listening {
  server: Server;
  port: number;
  url: string;
  close(): Promise<void>;
}

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
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeIdleConnections();
          }),
      });
    });
  });
}
