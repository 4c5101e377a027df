import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { mountHealthRoutes, Readiness, type ReadinessCheck } from "./health.js";
import { type Listening, listen } from "./listen.js";

const servers: Listening[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close(0)));
});

async function serve(readiness: Readiness): Promise<string> {
  const app = express();
  mountHealthRoutes(app, readiness);
  const server = await listen(app, "127.0.0.1", 0);
  servers.push(server);
  return server.url;
}

async function get(url: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url);
  return { status: response.status, body: await response.json() };
}

describe("health routes", () => {
  it("/readyz is 200 with every check's detail when all pass", async () => {
    const url = await serve(
      new Readiness({
        database: () => ({ ok: true, pending: [] }),
        events: async () => ({ ok: true, backlog: 3 }),
      }),
    );
    expect(await get(`${url}/readyz`)).toEqual({
      status: 200,
      body: {
        status: "ready",
        checks: { database: { ok: true, pending: [] }, events: { ok: true, backlog: 3 } },
      },
    });
  });

  it("/readyz is 503 not_ready when one check fails, throws or does not answer in time", async () => {
    const hang: ReadinessCheck = () => new Promise(() => {});
    const url = await serve(
      new Readiness(
        {
          fine: () => ({ ok: true }),
          failing: () => ({ ok: false, version: null }),
          throwing: () => {
            throw new Error("connection refused");
          },
          hanging: hang,
        },
        50,
      ),
    );
    const started = Date.now();
    const { status, body } = await get(`${url}/readyz`);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(status).toBe(503);
    expect(body).toEqual({
      status: "not_ready",
      checks: {
        fine: { ok: true },
        failing: { ok: false, version: null },
        throwing: { ok: false, error: "connection refused" },
        hanging: { ok: false, error: "no answer within 50 ms" },
      },
    });
  });

  it("a draining process is 503 draining on /readyz while /healthz stays 200", async () => {
    const readiness = new Readiness({ database: () => ({ ok: true }) });
    const url = await serve(readiness);
    expect((await get(`${url}/readyz`)).status).toBe(200);
    readiness.drain();
    expect(await get(`${url}/readyz`)).toEqual({
      status: 503,
      body: { status: "draining", checks: { database: { ok: true } } },
    });
    expect(await get(`${url}/healthz`)).toEqual({ status: 200, body: { status: "ok" } });
  });

  it("/healthz asks no dependency", async () => {
    let asked = 0;
    const url = await serve(
      new Readiness({
        database: () => {
          asked++;
          return { ok: false };
        },
      }),
    );
    expect(await get(`${url}/healthz`)).toEqual({ status: 200, body: { status: "ok" } });
    expect(asked).toBe(0);
  });
});

describe("listen(...).close(deadline)", () => {
  /** A response that writes one line now and ends after `ms`. */
  function slowApp(ms: number) {
    const app = express();
    app.get("/slow", (_request, response) => {
      response.write("started\n");
      const timer = setTimeout(() => response.end("finished\n"), ms);
      response.once("close", () => clearTimeout(timer));
    });
    return app;
  }

  async function readAll(response: Response): Promise<{ text: string; complete: boolean }> {
    try {
      return { text: await response.text(), complete: true };
    } catch {
      return { text: "", complete: false };
    }
  }

  it("lets a request under way finish when it ends before the deadline, and refuses new connections", async () => {
    const server = await listen(slowApp(300), "127.0.0.1", 0);
    const response = await fetch(`${server.url}/slow`);
    const closing = server.close(5_000);
    await expect(fetch(`${server.url}/slow`)).rejects.toThrow();
    expect(await readAll(response)).toEqual({ text: "started\nfinished\n", complete: true });
    await closing;
  });

  it("cuts a request still running at the deadline", async () => {
    const server = await listen(slowApp(60_000), "127.0.0.1", 0);
    const response = await fetch(`${server.url}/slow`);
    const started = Date.now();
    await server.close(200);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect((await readAll(response)).complete).toBe(false);
  });

  it("closes a keep-alive connection that goes idle after close()", async () => {
    const server = await listen(slowApp(200), "127.0.0.1", 0);
    const response = await fetch(`${server.url}/slow`);
    const started = Date.now();
    const closing = server.close();
    await readAll(response);
    await closing;
    // Without the idle sweep this waits for the client's keep-alive (undici: 4 s) or the server's (5 s).
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
