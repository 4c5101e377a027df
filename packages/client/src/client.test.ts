import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGatewayClient } from "./index.js";

// The client against a real HTTP server on loopback that records what arrives: the credential is sent
// as a Bearer header on every call, paths and query parameters are built from the typed arguments, and
// error answers come back as the typed `error`, not as exceptions.

interface Seen {
  method: string;
  url: string;
  authorization: string | undefined;
  body: string;
}

const seen: Seen[] = [];
let baseUrl = "";

const server = createServer((request: IncomingMessage, response) => {
  let body = "";
  request.on("data", (chunk: Buffer) => {
    body += chunk.toString("utf8");
  });
  request.on("end", () => {
    seen.push({
      method: request.method ?? "",
      url: request.url ?? "",
      authorization: request.headers.authorization,
      body,
    });
    response.setHeader("content-type", "application/json");
    if (request.url?.startsWith("/api/v1/credits")) {
      response.end(JSON.stringify({ data: { total_credits: 10, total_usage: 1.5 } }));
    } else {
      response.statusCode = 404;
      response.end(JSON.stringify({ error: { message: "key abc not found", type: "not_found_error" } }));
    }
  });
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe("createGatewayClient", () => {
  it("sends the key as a Bearer credential and parses the typed answer", async () => {
    const client = createGatewayClient({ baseUrl, key: "mgmt-secret" });
    const credits = await client.GET("/api/v1/credits");
    expect(credits.data?.data).toEqual({ total_credits: 10, total_usage: 1.5 });
    expect(seen.at(-1)).toMatchObject({
      method: "GET",
      url: "/api/v1/credits",
      authorization: "Bearer mgmt-secret",
    });
  });

  it("builds path and query parameters and JSON bodies from the typed arguments", async () => {
    const client = createGatewayClient({ baseUrl, key: "k" });
    await client.PATCH("/api/v1/keys/{hash}", {
      params: { path: { hash: "a/b" } },
      body: { disabled: true },
    });
    expect(seen.at(-1)).toMatchObject({
      method: "PATCH",
      url: "/api/v1/keys/a%2Fb",
      body: '{"disabled":true}',
    });
    await client.GET("/api/v1/generation", { params: { query: { id: "gen-1" } } });
    expect(seen.at(-1)?.url).toBe("/api/v1/generation?id=gen-1");
  });

  it("returns an error answer as the typed error body", async () => {
    const client = createGatewayClient({ baseUrl, key: "k" });
    const answer = await client.GET("/api/v1/keys/{hash}", { params: { path: { hash: "abc" } } });
    expect(answer.response.status).toBe(404);
    expect(answer.data).toBeUndefined();
    expect(answer.error?.error).toEqual({ message: "key abc not found", type: "not_found_error" });
  });
});
