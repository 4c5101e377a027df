import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "@gw/db";
import {
  createTestDatabase,
  describeWith,
  kafkaBrokers,
  serviceUrl,
  type TestDatabase,
  uniqueName,
} from "@gw/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type AppProcess, eventually, freshTopics, startProcess, waitForHttp } from "./processes.js";

// The embedded default as a process on real PostgreSQL, Redis and Kafka, with METRICS_PORT set: after
// traffic on every part (inference, streams, a provider that cannot be reached, management, credits,
// generation lookup), its one /metrics shows every series family moving, and none of the ids the
// traffic used (account, key, key hash, generation) appears anywhere in the exposition.

interface DevCredentials {
  account_id: string;
  management_key: string;
  api_key: string;
}

type Samples = Map<string, number>;

/** `name{labels} value` lines of a Prometheus text exposition. */
function samples(text: string): Samples {
  const out: Samples = new Map();
  for (const line of text.split("\n")) {
    if (line.startsWith("#") || line.trim() === "") continue;
    const at = line.lastIndexOf(" ");
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

/** The sum of every sample of `name` whose labels contain all of `labels` (`key="value"` fragments). */
function total(all: Samples, name: string, ...labels: string[]): number {
  let sum = 0;
  for (const [series, value] of all) {
    const [metric] = series.split("{");
    if (metric !== name) continue;
    if (labels.every((label) => series.includes(label))) sum += value;
  }
  return sum;
}

describeWith(["postgres", "redis", "kafka"], "metrics of the embedded default", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "gw-metrics-"));
  let database: TestDatabase;
  let gateway: AppProcess | undefined;
  let url: string;
  let metricsUrl: string;
  let credentials: DevCredentials;
  const generationIds: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    const topics = await freshTopics("metrics", kafkaBrokers());
    const [port, metricsPort, closedPort] = [await freePort(), await freePort(), await freePort()];
    url = `http://127.0.0.1:${port}`;
    metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    gateway = startProcess("standalone", "apps/standalone/dist/main.js", {
      ...topics,
      PORT: String(port),
      METRICS_PORT: String(metricsPort),
      GW_DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      DATABASE_URL: database.url,
      REDIS_URL: serviceUrl("redis"),
      REDIS_KEY_PREFIX: uniqueName("metrics"),
      KAFKA_BROKERS: kafkaBrokers().join(","),
      // A provider nobody answers for: its attempts fail with class "connect".
      OPENAI_API_KEY: "sk-metrics-test",
      OPENAI_BASE_URL: `http://127.0.0.1:${closedPort}/v1`,
    });
    await waitForHttp(`${url}/readyz`, gateway, 120_000);
    // The dev credentials are written just before the banner.
    await eventually(
      async () => (gateway?.output().includes("Model Gateway is running on") ? true : undefined),
      60_000,
    );
    credentials = JSON.parse(readFileSync(join(dataDir, "dev-credentials.json"), "utf8")) as DevCredentials;
    await traffic();
  }, 240_000);

  afterAll(async () => {
    await gateway?.stop();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const call = (path: string, key: string, body?: unknown) =>
    fetch(`${url}${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  async function traffic(): Promise<void> {
    const chat = (model: string, stream: boolean) =>
      call("/v1/chat/completions", credentials.api_key, {
        model,
        stream,
        messages: [{ role: "user", content: "metrics" }],
      });
    for (const stream of [false, false, true]) {
      const response = await chat("demo/echo", stream);
      expect(response.status).toBe(200);
      generationIds.push(response.headers.get("x-generation-id") ?? "");
      await response.text();
    }
    const models = (await (await call("/v1/models", credentials.api_key)).json()) as {
      data: { id: string }[];
    };
    const openAiModel = models.data.find((model) => model.id.startsWith("openai/"))?.id;
    expect(openAiModel).toBeDefined();
    const unreachable = await chat(openAiModel as string, false);
    expect(unreachable.status).toBeGreaterThanOrEqual(500);
    await unreachable.text();
    expect((await call("/api/v1/keys", credentials.management_key)).status).toBe(200);
    expect((await call("/api/v1/credits", credentials.management_key)).status).toBe(200);
    // The usage event reaches generations (and billing) through Kafka: wait until it is served.
    await eventually(async () => {
      const lookup = await call(`/api/v1/generation?id=${generationIds[0]}`, credentials.api_key);
      return lookup.status === 200 ? true : undefined;
    }, 60_000);
  }

  const scrape = async (): Promise<{ text: string; all: Samples }> => {
    const response = await fetch(metricsUrl);
    expect(response.status).toBe(200);
    const text = await response.text();
    return { text, all: samples(text) };
  };

  it("is not served on the gateway's public port", async () => {
    expect((await fetch(`${url}/metrics`)).status).toBe(404);
  });

  it("counts HTTP requests of all four apps by route pattern and surface", async () => {
    const { all } = await scrape();
    expect(
      total(
        all,
        "gw_http_requests_total",
        'app="edge"',
        'route="/v1/chat/completions"',
        'surface="openai"',
        'status="200"',
      ),
    ).toBeGreaterThanOrEqual(3);
    expect(
      total(all, "gw_http_request_duration_seconds_count", 'app="edge"', 'route="/v1/chat/completions"'),
    ).toBeGreaterThanOrEqual(4);
    expect(
      total(all, "gw_http_requests_total", 'app="edge"', 'route="/api/v1/keys/*"', 'surface="management"'),
    ).toBeGreaterThan(0);
    expect(total(all, "gw_http_requests_total", 'app="keys"', 'route="/api/v1/keys"')).toBeGreaterThan(0);
    expect(total(all, "gw_http_requests_total", 'app="billing"', 'route="/api/v1/credits"')).toBeGreaterThan(
      0,
    );
    expect(
      total(all, "gw_http_requests_total", 'app="generations"', 'route="/api/v1/generation"'),
    ).toBeGreaterThan(0);
  });

  it("times provider attempts and first tokens, and counts failures by class", async () => {
    const { all } = await scrape();
    expect(
      total(all, "gw_upstream_attempt_duration_seconds_count", 'provider="demo"', 'outcome="ok"'),
    ).toBeGreaterThanOrEqual(3);
    expect(
      total(all, "gw_upstream_time_to_first_token_seconds_count", 'provider="demo"'),
    ).toBeGreaterThanOrEqual(1);
    expect(total(all, "gw_upstream_errors_total", 'provider="openai"', 'class="connect"')).toBeGreaterThan(0);
  });

  it("counts admission, the auth cache and gRPC on both sides", async () => {
    const { all } = await scrape();
    expect(total(all, "gw_admission_outcomes_total", 'outcome="admitted"')).toBeGreaterThanOrEqual(3);
    expect(total(all, "gw_admission_lease_grants_total", 'result="granted"')).toBeGreaterThan(0);
    expect(total(all, "gw_auth_cache_lookups_total", 'result="miss"')).toBeGreaterThan(0);
    expect(total(all, "gw_auth_cache_lookups_total", 'result="hit"')).toBeGreaterThan(0);
    expect(
      total(
        all,
        "gw_grpc_server_duration_seconds_count",
        'method="/keys.v1.KeyService/Authenticate"',
        'code="OK"',
      ),
    ).toBeGreaterThan(0);
    expect(total(all, "gw_grpc_client_duration_seconds_count", 'code="OK"')).toBeGreaterThan(0);
  });

  it("shows Kafka publishing, consumption and the ledger", async () => {
    const all = await eventually(async () => {
      const { all: now } = await scrape();
      return total(now, "gw_ledger_apply_duration_seconds_count", 'operation="usage"') > 0 ? now : undefined;
    }, 60_000);
    expect(total(all, "gw_kafka_publish_duration_seconds_count", 'outcome="ok"')).toBeGreaterThan(0);
    expect(total(all, "gw_kafka_published_messages_total")).toBeGreaterThanOrEqual(3);
    expect(total(all, "gw_kafka_consumer_batch_size_count")).toBeGreaterThan(0);
    expect([...all.keys()].some((series) => series.startsWith("gw_kafka_consumer_lag{"))).toBe(true);
    expect(all.has("gw_kafka_spool_depth")).toBe(true);
  });

  it("carries Node's own series: event-loop lag, heap, GC", async () => {
    const { all } = await scrape();
    expect(all.has("nodejs_eventloop_lag_p99_seconds")).toBe(true);
    expect(total(all, "nodejs_heap_size_used_bytes")).toBeGreaterThan(0);
    // GC series appear after the first collection, which a short run may not have had yet: fetching the
    // OpenAPI document (~0.5 MB, serialised per request) allocates until one happens.
    const collected = async () => {
      await (await fetch(`${url}/openapi.json`)).arrayBuffer();
      const { all: now } = await scrape();
      return [...now.keys()].some((series) => series.startsWith("nodejs_gc_duration_seconds_count"));
    };
    await expect.poll(collected, { timeout: 30_000, interval: 100 }).toBe(true);
  });

  it("has no key, account or generation id in any label", async () => {
    const { text } = await scrape();
    const keyHash = (secret: string) => createHash("sha256").update(secret).digest("hex");
    const ids = [
      credentials.account_id,
      credentials.api_key,
      credentials.management_key,
      keyHash(credentials.api_key),
      keyHash(credentials.management_key),
      ...generationIds,
    ];
    expect(ids.every((id) => id.length > 8)).toBe(true);
    for (const id of ids) expect(text).not.toContain(id);
    // Nor anything shaped like one: the gateway's key prefixes or a 64-hex hash.
    expect(text).not.toMatch(/lr_(live|mgmt)_|[0-9a-f]{64}/);
  });
});
