import * as grpc from "@grpc/grpc-js";
import { Readiness } from "@gw/http";
import { silentLogger } from "@gw/logger";
import { callerPolicy, serviceAuthSet } from "@gw/rpc";
import { describe, expect, it } from "vitest";
import { createControlPlaneGrpc } from "./grpc.js";
import { createControlPlaneApp } from "./http.js";
import { startControlPlane } from "./start.js";

const logger = silentLogger();
const LISTEN = { host: "127.0.0.1", httpPort: 0, grpcPort: 0 };

/** A piece of work that notes when it stops, and whether the servers still answered then. */
function work(name: string, log: string[], probe?: () => Promise<boolean>) {
  return {
    stop: async () => {
      const answering = probe ? await probe() : undefined;
      log.push(answering === undefined ? name : `${name}${answering ? " (servers up)" : " (servers down)"}`);
    },
  };
}

const plainApp = (readiness: Readiness) =>
  createControlPlaneApp({
    logger,
    readiness,
    routes: (app) => {
      app.post("/echo", (request, response) => {
        response.json({ body: request.body as unknown });
      });
    },
  });

describe("startControlPlane", () => {
  it("starts the app's work before its servers and stops it before, with and after them", async () => {
    const log: string[] = [];
    const readiness = new Readiness();
    let url = "";
    const up = async () =>
      fetch(`${url}/healthz`).then(
        () => true,
        () => false,
      );
    const running = await startControlPlane(
      {
        name: "billing",
        logger,
        readiness,
        work: async (stops) => {
          log.push("work started");
          stops.afterServers(work("after", log, up));
          stops.withServers(work("with", log));
          stops.beforeServers(work("before", log, up));
        },
        http: () => {
          log.push("http");
          return plainApp(readiness);
        },
        grpc: () => createControlPlaneGrpc({ logger }, callerPolicy(), []),
      },
      LISTEN,
    );
    url = running.httpUrl;
    expect(log).toEqual(["work started", "http"]);
    expect(running.grpcAddress).toMatch(/^127\.0\.0\.1:\d+$/);
    expect((await fetch(`${url}/readyz`)).status).toBe(200);

    await running.stop();
    expect(readiness.isDraining).toBe(true);
    expect(log.slice(2)).toEqual(["before (servers up)", "with", "after (servers down)"]);
  });

  it("stops the work it started when a server cannot bind, and rethrows", async () => {
    const taken = new grpc.Server();
    const port = await new Promise<number>((resolve, reject) =>
      taken.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) =>
        error ? reject(error) : resolve(bound),
      ),
    );
    try {
      const log: string[] = [];
      const readiness = new Readiness();
      await expect(
        startControlPlane(
          {
            name: "keys",
            logger,
            readiness,
            work: async (stops) => stops.afterServers(work("health", log)),
            http: () => plainApp(readiness),
            grpc: () => createControlPlaneGrpc({ logger }, callerPolicy(), []),
          },
          { ...LISTEN, grpcPort: port },
        ),
      ).rejects.toThrow(/EADDRINUSE|address/i);
      expect(log).toEqual(["health"]);
    } finally {
      taken.forceShutdown();
    }
  });
});

describe("createControlPlaneApp", () => {
  const serve = async (options: { auth?: boolean }) => {
    const readiness = new Readiness();
    const auth = serviceAuthSet();
    const running = await startControlPlane(
      {
        name: "generations",
        logger,
        readiness,
        http: () =>
          createControlPlaneApp({
            logger,
            readiness,
            serviceAuth: options.auth ? auth.generations : undefined,
            beforeBody: (app) => {
              app.post("/raw", (request, response) => {
                response.json({ parsed: request.body !== undefined });
              });
            },
            routes: (app) => {
              app.post("/echo", (request, response) => {
                response.json({ body: request.body as unknown });
              });
            },
          }),
        grpc: () => createControlPlaneGrpc({ logger }, callerPolicy(), []),
      },
      LISTEN,
    );
    return { running, auth };
  };

  it("serves probes and the app's routes after the JSON body; a route before it reads the body itself", async () => {
    const { running } = await serve({});
    try {
      const post = (path: string, body: string) =>
        fetch(`${running.httpUrl}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body,
        });
      expect(await (await fetch(`${running.httpUrl}/healthz`)).json()).toEqual({ status: "ok" });
      expect(await (await post("/echo", '{"a":1}')).json()).toEqual({ body: { a: 1 } });
      expect(await (await post("/raw", '{"a":1}')).json()).toEqual({ parsed: false });
      // NUL cannot be stored in PostgreSQL text: the body layer refuses it.
      expect((await post("/echo", '{"a":"\\u0000"}')).status).toBe(400);
      expect((await fetch(`${running.httpUrl}/x%ff`)).status).toBe(400);
      const missing = await fetch(`${running.httpUrl}/nowhere`);
      expect(missing.status).toBe(404);
      expect(await missing.json()).toMatchObject({ error: { message: expect.stringContaining("/nowhere") } });
    } finally {
      await running.stop();
    }
  });

  it("with service auth, answers only the edge, probes excepted", async () => {
    const { running, auth } = await serve({ auth: true });
    const echo = (token?: string) =>
      fetch(`${running.httpUrl}/echo`, {
        method: "POST",
        headers: { "content-type": "application/json", ...(token ? { "x-gw-service-token": token } : {}) },
        body: "{}",
      });
    try {
      expect((await fetch(`${running.httpUrl}/readyz`)).status).toBe(200);
      expect((await echo()).status).toBe(401);
      expect((await echo(await auth.billing.issuer.tokenFor("generations"))).status).toBe(403);
      expect((await echo(await auth.edge.issuer.tokenFor("generations"))).status).toBe(200);
    } finally {
      await running.stop();
    }
  });
});
