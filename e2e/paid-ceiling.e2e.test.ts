import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppProcess, eventually, freshTopics, runCli, startProcess, waitForHttp } from "./processes.js";

// The paid-model request ceiling is the account's, whatever edge or key a request comes through: two
// edges, each on its own billing replica, the replicas sharing one Redis (the admission view) and one
// Postgres, all separate OS processes on real Postgres, Redis and Kafka; only the upstream is a fake.

const CEILING = 48;
const MODEL = "openai/gpt-4o-mini";

interface Outcome {
  edge: number;
  status: number;
  limitSource?: string;
  retryAfter: string | null;
  rateLimit: string | null;
}

describeWith(["postgres", "redis", "kafka"], "the paid-model request ceiling across two edges", () => {
  const apps: AppProcess[] = [];
  let database: TestDatabase;
  let upstream: FakeServer;
  let edges: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    upstream = await startFakeOpenAi({ host: "127.0.0.1", port: 0, requireKey: "sk-upstream-test" });
    const brokers = kafkaBrokers();
    const port = async () => String(await freePort());
    const [keysHttp, keysGrpc, generationsHttp, generationsGrpc] = [
      await port(),
      await port(),
      await port(),
      await port(),
    ];
    const env = {
      ...(await freshTopics("ceiling", brokers)),
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      DATABASE_URL: database.url,
      REDIS_URL: serviceUrl("redis"),
      REDIS_KEY_PREFIX: uniqueName("ceiling"),
      KAFKA_BROKERS: brokers.join(","),
      KEYS_GRPC_ADDRESS: `127.0.0.1:${keysGrpc}`,
      GENERATIONS_GRPC_ADDRESS: `127.0.0.1:${generationsGrpc}`,
      PAID_REQUESTS_PER_MINUTE: String(CEILING),
    };
    const keys = startProcess("keys", "apps/keys/dist/main.js", {
      ...env,
      HTTP_PORT: keysHttp,
      GRPC_PORT: keysGrpc,
    });
    const generations = startProcess("generations", "apps/generations/dist/main.js", {
      ...env,
      HTTP_PORT: generationsHttp,
      GRPC_PORT: generationsGrpc,
    });
    apps.push(keys, generations);
    // One after the other: replicas starting together race to create the consumer's dead-letter topic.
    const replicas: Array<{ http: string; grpc: string }> = [];
    for (const name of ["a", "b"]) {
      const [http, grpc] = [await port(), await port()];
      const billing = startProcess(`billing-${name}`, "apps/billing/dist/main.js", {
        ...env,
        HTTP_PORT: http,
        GRPC_PORT: grpc,
      });
      apps.push(billing);
      await waitForHttp(`http://127.0.0.1:${http}/healthz`, billing);
      replicas.push({ http, grpc });
    }
    await waitForHttp(`http://127.0.0.1:${keysHttp}/healthz`, keys);
    await waitForHttp(`http://127.0.0.1:${generationsHttp}/healthz`, generations);
    edges = await Promise.all(
      replicas.map(async (replica, index) => {
        const edgePort = await port();
        const edge = startProcess(`edge-${index}`, "apps/edge/dist/main.js", {
          ...env,
          HTTP_PORT: edgePort,
          BILLING_GRPC_ADDRESS: `127.0.0.1:${replica.grpc}`,
          KEYS_HTTP_URL: `http://127.0.0.1:${keysHttp}`,
          BILLING_HTTP_URL: `http://127.0.0.1:${replica.http}`,
          GENERATIONS_HTTP_URL: `http://127.0.0.1:${generationsHttp}`,
          OPENAI_API_KEY: "sk-upstream-test",
          OPENAI_BASE_URL: upstream.baseUrl,
        });
        apps.push(edge);
        const url = `http://127.0.0.1:${edgePort}`;
        await waitForHttp(`${url}/readyz`, edge);
        return url;
      }),
    );
  }, 240_000);

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.stop()));
    await upstream?.close();
    await database?.drop();
  });

  /** An account with credits (operator CLI) and two API keys on it. */
  async function accountKeys(): Promise<string[]> {
    const created = JSON.parse(
      await runCli(
        "apps/standalone/dist/cli/main.js",
        ["accounts", "create", "--name", "ceiling", "--credits", "50", "--json"],
        {
          DATABASE_URL: database.url,
        },
      ),
    ) as { management_key: string };
    const keys = [];
    for (const name of ["one", "two"]) {
      const response = await fetch(`${edges[0]}/api/v1/keys`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${created.management_key}` },
        body: JSON.stringify({ name }),
      });
      expect(response.status).toBe(201);
      keys.push(((await response.json()) as { key: string }).key);
    }
    return keys;
  }

  async function chat(edge: number, key: string): Promise<Outcome> {
    const response = await fetch(`${edges[edge]}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body: JSON.stringify({ model: MODEL, max_tokens: 8, messages: [{ role: "user", content: "hi" }] }),
    });
    const body = (await response.json()) as { error?: { metadata?: { limit_source?: string } } };
    return {
      edge,
      status: response.status,
      ...(body.error?.metadata?.limit_source ? { limitSource: body.error.metadata.limit_source } : {}),
      retryAfter: response.headers.get("retry-after"),
      rateLimit: response.headers.get("x-ratelimit-limit"),
    };
  }

  it("admits at most the account's ceiling per minute through both edges and both keys together", async () => {
    // Every request of the case must land in one UTC minute.
    while (new Date().getUTCSeconds() > 30) await new Promise((resolve) => setTimeout(resolve, 500));
    const [first = "", second = ""] = await accountKeys();
    const pairs = [0, 1, 2, 3].map((index) => ({ edge: index % 2, key: index < 2 ? first : second }));
    // One request per edge and key first, so both edges are warm (key, catalogue, lease) when the burst comes.
    const warm = await Promise.all(pairs.map(({ edge, key }) => chat(edge, key)));
    expect(warm.map((outcome) => outcome.status)).toEqual([200, 200, 200, 200]);
    const burst = await Promise.all(
      Array.from({ length: CEILING * 2 - 4 }, (_, index) => {
        const { edge, key } = pairs[index % 4] ?? { edge: 0, key: first };
        return chat(edge, key);
      }),
    );
    const outcomes = [...warm, ...burst];
    const admitted = outcomes.filter((outcome) => outcome.status === 200);
    const refused = outcomes.filter((outcome) => outcome.status !== 200);
    console.log(
      `paid ceiling ${CEILING}/min: ${admitted.length} admitted (edge 0: ${admitted.filter((o) => o.edge === 0).length}, edge 1: ${admitted.filter((o) => o.edge === 1).length}), ${refused.length} refused`,
    );
    // Global: the two edges together stay within one ceiling (per-edge counting would admit all 96).
    expect(admitted.length).toBeLessThanOrEqual(CEILING);
    // Budget leases count their slice (48 / 16 = 3 requests) up front; at most the last slice of each
    // edge and key (2 requests each) goes unused, so the ceiling is reached within 8 requests.
    expect(admitted.length).toBeGreaterThanOrEqual(CEILING - 8);
    expect(new Set(admitted.map((outcome) => outcome.edge))).toEqual(new Set([0, 1]));
    expect(new Set(refused.map((outcome) => outcome.edge))).toEqual(new Set([0, 1]));
    for (const outcome of refused) {
      expect(outcome).toMatchObject({ status: 429, limitSource: "paid:minute", rateLimit: String(CEILING) });
      expect(Number(outcome.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(outcome.retryAfter)).toBeLessThanOrEqual(60);
    }
    // Another account is not held back by this one's ceiling.
    const [other = ""] = await accountKeys();
    expect((await chat(1, other)).status).toBe(200);
  });
});

describe("the paid-model request ceiling on the embedded default (PAID_REQUESTS_PER_MINUTE)", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "gw-ceiling-"));
  let gateway: AppProcess | undefined;
  let url: string;

  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    const env: Record<string, string> = {
      PORT: String(port),
      GW_DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      PAID_REQUESTS_PER_MINUTE: "3",
    };
    for (const name of ["DATABASE_URL", "REDIS_URL", "KAFKA_BROKERS", "OPENAI_API_KEY"]) env[name] = "";
    gateway = startProcess("standalone", "apps/standalone/dist/main.js", env);
    await waitForHttp(`${url}/readyz`, gateway, 120_000);
    await eventually(
      async () => (gateway?.output().includes("Model Gateway is running on") ? true : undefined),
      30_000,
    );
  }, 180_000);

  afterAll(async () => {
    await gateway?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("admits 3 demo requests of the account in a minute and answers the 4th 429 paid:minute", async () => {
    while (new Date().getUTCSeconds() > 45) await new Promise((resolve) => setTimeout(resolve, 500));
    const { api_key: apiKey } = JSON.parse(readFileSync(join(dataDir, "dev-credentials.json"), "utf8")) as {
      api_key: string;
    };
    const chat = () =>
      fetch(`${url}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
        body: JSON.stringify({ model: "demo/echo", messages: [{ role: "user", content: "hi" }] }),
      });
    const statuses = [];
    for (let index = 0; index < 3; index++) statuses.push((await chat()).status);
    expect(statuses).toEqual([200, 200, 200]);
    const refused = await chat();
    expect(refused.status).toBe(429);
    expect(refused.headers.get("x-ratelimit-limit")).toBe("3");
    expect(
      ((await refused.json()) as { error: { metadata: { limit_source: string } } }).error.metadata,
    ).toMatchObject({
      limit_source: "paid:minute",
    });
  });
});
