import { gzipSync } from "node:zlib";
import { GatewayError } from "@gw/errors";
import { silentLogger } from "@gw/logger";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { errorHandler, notFoundHandler } from "./errors.js";
import { jsonBody } from "./json.js";
import { type Listening, listen } from "./listen.js";
import { parseOrThrow } from "./validate.js";

const schema = z.object({ model: z.string(), messages: z.array(z.object({ content: z.string() })) });

let server: Listening;

beforeAll(async () => {
  const app = express();
  app.use(jsonBody("1kb"));
  app.post("/echo", (request, response) => {
    response.json(parseOrThrow(schema, request.body));
  });
  app.post("/raw", (request, response) => {
    response.json({ body: request.body ?? null });
  });
  app.get("/boom", () => {
    throw new Error("secret internals");
  });
  app.get("/teapot", () => {
    throw new GatewayError("rate_limit", "slow down", { headers: { "retry-after": "3" } });
  });
  app.use(notFoundHandler());
  app.use(errorHandler(silentLogger()));
  server = await listen(app, "127.0.0.1", 0);
});

afterAll(() => server.close());

const post = (body: string) =>
  fetch(`${server.url}/echo`, { method: "POST", headers: { "content-type": "application/json" }, body });

describe("http helpers over a real socket", () => {
  it("answers malformed JSON with 400 in the envelope", async () => {
    const response = await post("{not json");
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: { type: "invalid_request_error", metadata: { reason: "invalid_json" } },
    });
  });

  it("answers an oversize body with 413", async () => {
    const response = await post(JSON.stringify({ model: "x".repeat(2048), messages: [] }));
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: { type: "request_too_large" } });
  });

  it("names the invalid field", async () => {
    const response = await post(JSON.stringify({ model: "m", messages: [{ content: 5 }] }));
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toMatch(/^messages\[0\]\.content: /);
  });

  it("hides unexpected errors behind a generic 500", async () => {
    const response = await fetch(`${server.url}/boom`);
    expect(response.status).toBe(500);
    expect(JSON.stringify(await response.json())).not.toContain("secret internals");
  });

  it("keeps catalogue status and headers", async () => {
    const response = await fetch(`${server.url}/teapot`);
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("3");
  });

  it("answers unknown routes with 404 in the envelope", async () => {
    const response = await fetch(`${server.url}/nope`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { type: "not_found_error" } });
  });

  describe("JSON bodies", () => {
    const raw = (body: string | Uint8Array, headers: Record<string, string>) =>
      fetch(`${server.url}/raw`, { method: "POST", headers, body });
    const json = { "content-type": "application/json" };

    it("parses application/json with a utf-8 charset and a byte-order mark", async () => {
      const response = await raw(`\ufeff{"a":"ü"}`, { "content-type": "Application/JSON; charset=UTF-8" });
      expect(await response.json()).toEqual({ body: { a: "ü" } });
    });

    it("reads an empty JSON body as {} and a whitespace-only or scalar one as malformed", async () => {
      expect(await (await raw("", json)).json()).toEqual({ body: {} });
      const blank = await raw("   ", json);
      expect(blank.status).toBe(400);
      expect(await blank.json()).toMatchObject({ error: { metadata: { reason: "invalid_json" } } });
      const scalar = await raw('"text"', json);
      expect(scalar.status).toBe(400);
      expect(await scalar.json()).toMatchObject({ error: { metadata: { reason: "invalid_json" } } });
    });

    it("answers a chunked body over the limit with 413 and keeps serving the connection's next request", async () => {
      const big = new TextEncoder().encode(JSON.stringify({ pad: "x".repeat(4096) }));
      const stream = new ReadableStream({
        start(controller) {
          controller.enqueue(big.slice(0, 1000));
          controller.enqueue(big.slice(1000));
          controller.close();
        },
      });
      const response = await fetch(`${server.url}/raw`, {
        method: "POST",
        headers: json,
        body: stream,
        duplex: "half",
      } as RequestInit);
      expect(response.status).toBe(413);
      expect(await response.json()).toMatchObject({ error: { metadata: { reason: "body_too_large" } } });
      expect((await raw('{"after":1}', json)).status).toBe(200);
    });

    it("still inflates a gzip body and parses +json types", async () => {
      const gzipped = await raw(gzipSync('{"z":1}'), { ...json, "content-encoding": "gzip" });
      expect(await gzipped.json()).toEqual({ body: { z: 1 } });
      const vendor = await raw('{"v":1}', { "content-type": "application/vnd.api+json" });
      expect(await vendor.json()).toEqual({ body: { v: 1 } });
    });

    it("leaves a body of another type unparsed", async () => {
      expect(await (await raw("a=b", { "content-type": "text/plain" })).json()).toEqual({ body: null });
    });
  });
});
