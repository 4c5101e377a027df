import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createTlsServer } from "node:https";
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

/**
 * A self-signed certificate for `cdn.test` (P-256, valid to 2126), made once with openssl for these
 * tests: no CA trusts it, so a client that verifies certificates must refuse it.
 */
const TEST_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQga1AD/Mt7jGfKSGvb
Igr/07gong18Fdes4FY/jJQwefmhRANCAAQJVRm16czj18qqYPMh3IZ8Z4qvLP+C
eysVJWDRaW2XAhiLVDH3/eCviefEA50aUIPkXSWEOpFDHUYKIoihZ3NB
-----END PRIVATE KEY-----`;
const TEST_CERT = `-----BEGIN CERTIFICATE-----
MIIBkjCCATigAwIBAgIUfdpVrxKYszt2vdQAR06UvrYVKK8wCgYIKoZIzj0EAwIw
EzERMA8GA1UEAwwIY2RuLnRlc3QwIBcNMjYxMTI4MDQxOTI5WhgPMjEyNjExMDQw
NDE5MjlaMBMxETAPBgNVBAMMCGNkbi50ZXN0MFkwEwYHKoZIzj0CAQYIKoZIzj0D
AQcDQgAECVUZtenM49fKqmDzIdyGfGeKryz/gnsrFSVg0WltlwIYi1Qx9/3gr4nn
xAOdGlCD5F0lhDqRQx1GCiKIoWdzQaNoMGYwHQYDVR0OBBYEFD2r9x4vy8ccPS5S
eyy+Mn8Pycf8MB8GA1UdIwQYMBaAFD2r9x4vy8ccPS5Seyy+Mn8Pycf8MA8GA1Ud
EwEB/wQFMAMBAf8wEwYDVR0RBAwwCoIIY2RuLnRlc3QwCgYIKoZIzj0EAwIDSAAw
RQIgY7674ljxwcXQmuLsq4tNexFitcm1OQHKmKjTKFbdo7wCIQCZj25Q14OdfBQS
uTgil2q1rdaypVwWdClmvRVtO1E+IA==
-----END CERTIFICATE-----`;

/** An HTTPS server on 127.0.0.1 with the untrusted `cdn.test` certificate; records the SNI names it was sent. */
export function serveHttpsUntrusted(): Promise<{
  port: number;
  serverNames: string[];
  close(): Promise<void>;
}> {
  const serverNames: string[] = [];
  const options = {
    key: TEST_KEY,
    cert: TEST_CERT,
    // Called with the client's SNI before the handshake goes on: a client that refuses the certificate
    // never completes it, so this is where the name is seen.
    SNICallback: (name: string, done: (error: Error | null) => void) => {
      serverNames.push(name);
      done(null);
    },
  };
  const server = createTlsServer(options, (_request, response) => {
    response.writeHead(200, { "content-type": "image/png" });
    response.end("served over an untrusted certificate");
  });
  server.on("tlsClientError", () => {});
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      resolve({
        port: typeof address === "object" && address !== null ? address.port : 0,
        serverNames,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
