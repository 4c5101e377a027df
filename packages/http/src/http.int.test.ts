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
      error: { type: "invalid_request_error", code: "invalid_json" },
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
});
