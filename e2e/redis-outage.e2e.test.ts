import { createServer, type Server, type Socket, connect as tcpConnect } from "node:net";
import { freePort } from "@gw/db";
import { type FakeServer, startFakeOpenAi } from "@gw/fake-providers";
import {
  createTestDatabase,
  describeWith,
  kafkaBrokers,
  serviceUrl,
  type TestDatabase,
  uniqueName,
} from "@gw/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type AppProcess, eventually, freshTopics, runCli, startProcess, waitForHttp } from "./processes.js";

// Billing's Redis goes away under running processes: an edge on a fail-closed billing answers 503, one
// on a fail-open billing (ADMISSION_FAIL_OPEN=true) keeps serving, and both recover when Redis returns.
// Redis is reached through a TCP relay in this process, so the outage touches nobody else's Redis.

/** A TCP relay to Redis that can be cut (listener closed, connections dropped) and restored. */
class Relay {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();

  constructor(
    private readonly target: { host: string; port: number },
    readonly port: number,
  ) {}

  async open(): Promise<void> {
    const server = createServer((client) => {
      const upstream = tcpConnect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on("error", () => socket.destroy());
        socket.on("close", () => this.sockets.delete(socket));
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server.listen(this.port, "127.0.0.1", resolve));
    this.server = server;
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise((resolve) => server.close(resolve));
  }
}

describeWith(["postgres", "redis", "kafka"], "billing's Redis unreachable", () => {
  const apps: AppProcess[] = [];
  let database: TestDatabase;
  let upstream: FakeServer;
  let relay: Relay;
  let apiKey: string;
  let unleasedKey: string;
  const edges = { closed: "", open: "" };

  beforeAll(async () => {
    database = await createTestDatabase();
    upstream = await startFakeOpenAi({ host: "127.0.0.1", port: 0, requireKey: "sk-upstream-test" });
    const redis = new URL(serviceUrl("redis"));
    relay = new Relay(
      { host: redis.hostname, port: Number(redis.port || 6379) },
      (await freePort()) as number,
    );
    await relay.open();
    const brokers = kafkaBrokers();
    const topics = await freshTopics("outage", brokers);
    const port = async () => String(await freePort());
    const keysHttp = await port();
    const keysGrpc = await port();
    const env = {
      ...topics,
      HOST: "127.0.0.1",
      LOG_LEVEL: "error",
      DATABASE_URL: database.url,
      REDIS_URL: `redis://127.0.0.1:${relay.port}`,
      REDIS_KEY_PREFIX: uniqueName("outage"),
      KAFKA_BROKERS: brokers.join(","),
      KEYS_GRPC_ADDRESS: `127.0.0.1:${keysGrpc}`,
    };
    const keys = startProcess("keys", "apps/keys/dist/main.js", {
      ...env,
      HTTP_PORT: keysHttp,
      GRPC_PORT: keysGrpc,
    });
    apps.push(keys);
    await waitForHttp(`http://127.0.0.1:${keysHttp}/healthz`, keys);
    for (const mode of ["closed", "open"] as const) {
      const billingHttp = await port();
      const billingGrpc = await port();
      const billing = startProcess(`billing-${mode}`, "apps/billing/dist/main.js", {
        ...env,
        HTTP_PORT: billingHttp,
        GRPC_PORT: billingGrpc,
        ADMISSION_FAIL_OPEN: String(mode === "open"),
      });
      apps.push(billing);
      await waitForHttp(`http://127.0.0.1:${billingHttp}/healthz`, billing);
      const edgePort = await port();
      const edge = startProcess(`edge-${mode}`, "apps/edge/dist/main.js", {
        ...env,
        HTTP_PORT: edgePort,
        BILLING_GRPC_ADDRESS: `127.0.0.1:${billingGrpc}`,
        KEYS_HTTP_URL: `http://127.0.0.1:${keysHttp}`,
        BILLING_HTTP_URL: `http://127.0.0.1:${billingHttp}`,
        GENERATIONS_HTTP_URL: `http://127.0.0.1:${await port()}`,
        OPENAI_API_KEY: "sk-upstream-test",
        OPENAI_BASE_URL: upstream.baseUrl,
      });
      apps.push(edge);
      edges[mode] = `http://127.0.0.1:${edgePort}`;
      await waitForHttp(`${edges[mode]}/readyz`, edge);
    }
    const created = JSON.parse(
      await runCli(
        "apps/standalone/dist/cli/main.js",
        ["accounts", "create", "--name", "outage", "--credits", "1", "--json"],
        {
          DATABASE_URL: database.url,
        },
      ),
    ) as { management_key: string };
    const createKey = async (name: string): Promise<string> => {
      const response = await fetch(`${edges.closed}/api/v1/keys`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${created.management_key}` },
        body: JSON.stringify({ name }),
      });
      return ((await response.json()) as { key: string }).key;
    };
    apiKey = await createKey("outage");
    unleasedKey = await createKey("outage, first used during it");
  }, 240_000);

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.stop()));
    await relay?.cut();
    await upstream?.close();
    await database?.drop();
  });

  const chat = async (edge: string, key = apiKey) => {
    const response = await fetch(`${edge}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body: JSON.stringify({
        model: "openai/gpt-4o-mini",
        max_tokens: 5,
        messages: [{ role: "user", content: "hi" }],
      }),
    });
    const body = (await response.json()) as { error?: { metadata?: { reason?: string } } };
    return { status: response.status, code: body.error?.metadata?.reason };
  };

  it("fails closed with 503 by default, admits when configured fail-open, and recovers with Redis", async () => {
    expect((await chat(edges.closed)).status).toBe(200);
    expect((await chat(edges.open)).status).toBe(200);
    await relay.cut();
    // A key without a budget lease needs billing's Redis for its first admission: refused.
    const refused = await chat(edges.closed, unleasedKey);
    expect(refused.status).toBe(503);
    // A lease granted before the outage is a hold billing already placed: the edge keeps using it.
    expect((await chat(edges.closed)).status).toBe(200);
    expect((await chat(edges.open, unleasedKey)).status).toBe(200);
    await relay.open();
    await eventually(async () => ((await chat(edges.closed)).status === 200 ? true : undefined), 30_000);
  });
});
