import { GatewayError } from "@gw/errors";
import { errorHandler, InFlight, type Listening, listen } from "@gw/http";
import express, { type Request, type RequestHandler } from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EdgeHttp } from "./app.js";
import { expressBorn, hotPathListener } from "./hot-path.js";
import type { Route } from "./routes/route.js";

const silent = { error: () => undefined };

/** A route whose handler answers with what the hot path gave it (or fails as the path asks). */
function route(path: string | string[]): Route {
  const handler: RequestHandler = async (request, response) => {
    const url = request.url;
    if (url.includes("throw"))
      throw new GatewayError("invalid_request", "thrown", { code: "invalid_request" });
    if (url.includes("late")) {
      response.writeHead(200, { "content-type": "text/plain" });
      response.write("partial");
      throw new Error("after the headers");
    }
    response.json({
      via: "hot",
      route: (request as Request & { route?: { path: unknown } }).route?.path,
      front: response.getHeader("x-front"),
      body: request.body,
    });
  };
  return { method: "post", path, handlers: [handler] };
}

describe("the hot path", () => {
  let listening: Listening;
  beforeAll(async () => {
    const app = express();
    app.use((_request, response) => {
      response.status(299).json({ via: "express" });
    });
    const http: EdgeHttp = {
      app,
      stack: {
        front: [
          (_request, response, next) => {
            response.setHeader("x-front", "1");
            next();
          },
        ],
        body: express.json(),
        payments: undefined,
        errors: [errorHandler(silent)],
      },
      inference: {
        exact: [route(["/v1/chat/completions", "/api/v1/chat/completions"])],
        gemini: route(["/v1beta/models/*rest", "/v1/models/*rest"]),
      },
    };
    listening = await listen(
      hotPathListener(http, { inFlight: new InFlight() }),
      "127.0.0.1",
      0,
      expressBorn(app),
    );
  });
  afterAll(async () => {
    await listening.close(100);
  });

  const post = (path: string, method = "POST") =>
    fetch(`${listening.url}${path}`, {
      method,
      headers: { "content-type": "application/json" },
      ...(method === "POST" ? { body: JSON.stringify({ a: 1 }) } : {}),
    });

  it("dispatches the inference routes itself, after the front middleware and the body", async () => {
    for (const path of ["/v1/chat/completions", "/api/v1/chat/completions?x=1"]) {
      const response = await post(path);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        via: "hot",
        route: ["/v1/chat/completions", "/api/v1/chat/completions"],
        front: "1",
        body: { a: 1 },
      });
    }
    const gemini = await post("/v1beta/models/gemini-2.5-flash:generateContent");
    expect(await gemini.json()).toMatchObject({
      via: "hot",
      route: ["/v1beta/models/*rest", "/v1/models/*rest"],
    });
  });

  it("leaves every other method and spelling to the express app", async () => {
    for (const [path, method] of [
      ["/v1/chat/completions", "GET"],
      ["/v1/chat/completions/", "POST"],
      ["/V1/chat/completions", "POST"],
      ["/v1/chat%2Fcompletions", "POST"],
      ["/v1/models/a%3Ab:generateContent", "POST"],
      ["/v1/embeddings", "POST"],
    ] as const) {
      const response = await post(path, method);
      expect(response.status, `${method} ${path}`).toBe(299);
    }
  });

  it("passes thrown errors to the error handlers, and cuts an answer that fails after its headers", async () => {
    const thrown = await post("/v1/chat/completions?throw");
    expect(thrown.status).toBe(400);
    expect(((await thrown.json()) as { error: { code: number } }).error.code).toBe(400);
    const late = await post("/v1/chat/completions?late");
    expect(late.status).toBe(200);
    await expect(late.text()).rejects.toThrow();
  });
});
