import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { CLIENT_ADDRESS_HTTP_HEADER, type Listening, listen, SERVICE_TOKEN_HTTP_HEADER } from "@gw/http";
import { silentLogger } from "@gw/logger";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TrustedProxies } from "./client-address.js";
import { passThrough } from "./pass-through.js";

// The control plane answers only the edge's service token: the pass-through puts the edge's on every
// forwarded request and never forwards one a client sent.

let owner: Server;
let ownerUrl: string;
const seen: Array<string | string[] | undefined> = [];
const addresses: Array<string | string[] | undefined> = [];
// No proxy trusted: the client is the TCP peer, whatever it writes in X-Forwarded-For.
const proxies = new TrustedProxies([]);
const clientAddress = (request: IncomingMessage) =>
  proxies.clientAddress(request.socket.remoteAddress, request.headers["x-forwarded-for"]);
let edges: Listening[] = [];

function startEdge(serviceToken?: () => Promise<string>): Promise<Listening> {
  const app = express();
  app.use(
    passThrough(
      { name: "key service", url: ownerUrl, paths: ["/api/v1/keys"], serviceToken, clientAddress },
      silentLogger(),
    ),
  );
  return listen(app, "127.0.0.1", 0);
}

beforeAll(async () => {
  owner = createServer((request: IncomingMessage, response) => {
    seen.push(request.headers[SERVICE_TOKEN_HTTP_HEADER]);
    addresses.push(request.headers[CLIENT_ADDRESS_HTTP_HEADER]);
    response.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
  await new Promise<void>((resolve) => owner.listen(0, "127.0.0.1", resolve));
  ownerUrl = `http://127.0.0.1:${(owner.address() as AddressInfo).port}`;
  edges = [await startEdge(async () => "the-edge-token"), await startEdge()];
});

afterAll(async () => {
  await Promise.all(edges.map((edge) => edge.close()));
  await new Promise((resolve) => owner.close(resolve));
});

describe("pass-through: the service token", () => {
  it("carries the edge's token and drops the client's own", async () => {
    seen.length = 0;
    const [signing] = edges;
    await fetch(`${signing?.url}/api/v1/keys`);
    await fetch(`${signing?.url}/api/v1/keys`, {
      headers: { [SERVICE_TOKEN_HTTP_HEADER]: "forged-by-client" },
    });
    expect(seen).toEqual(["the-edge-token", "the-edge-token"]);
  });

  it("forwards no client-supplied token when the edge has none configured", async () => {
    seen.length = 0;
    const [, bare] = edges;
    await fetch(`${bare?.url}/api/v1/keys`, { headers: { [SERVICE_TOKEN_HTTP_HEADER]: "forged-by-client" } });
    expect(seen).toEqual([undefined]);
  });
});

describe("pass-through: the client address", () => {
  it("names the client as the edge found it, never the address a client claims in a header", async () => {
    addresses.length = 0;
    const [signing] = edges;
    await fetch(`${signing?.url}/api/v1/keys`);
    await fetch(`${signing?.url}/api/v1/keys`, {
      headers: { [CLIENT_ADDRESS_HTTP_HEADER]: "203.0.113.7", "x-forwarded-for": "198.51.100.9" },
    });
    expect(addresses).toEqual(["127.0.0.1", "127.0.0.1"]);
  });
});
