import { writeFileSync } from "node:fs";
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
import { afterAll, beforeAll, expect, it } from "vitest";
import { type AppProcess, eventually, freshTopics, runCli, startProcess, waitForHttp } from "./processes.js";

// Issue 14: the catalogue is data operators change without a deploy. keys, billing, generations and TWO
// edges as OS processes on real PostgreSQL, Redis and Kafka; the operator changes a price with the CLI
// (LiteLLM import) and through the admin route on an edge, and the next request on every edge is
// billed at it, with no restart. The edges refresh at the shipped CATALOG_REFRESH_MS (5 s).

const CLI = "apps/standalone/dist/cli/main.js";
const MODEL = "openai/gpt-4o-mini";

describeWith(["postgres", "redis", "kafka"], "catalogue changes reach every edge without a restart", () => {
  const apps: AppProcess[] = [];
  let database: TestDatabase;
  let upstream: FakeServer;
  const edges: string[] = [];
  let managementKey: string;
  let apiKey: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    upstream = await startFakeOpenAi({ host: "127.0.0.1", port: 0, requireKey: "sk-upstream-test" });
    const brokers = kafkaBrokers();
    const topics = await freshTopics("catalog", brokers);
    const port = async () => String(await freePort());
    const [keysHttp, keysGrpc, billingHttp, billingGrpc, generationsHttp, generationsGrpc] =
      await Promise.all(Array.from({ length: 6 }, port));
    const env = {
      ...topics,
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      DATABASE_URL: database.url,
      REDIS_URL: serviceUrl("redis"),
      REDIS_KEY_PREFIX: uniqueName("catalog"),
      KAFKA_BROKERS: brokers.join(","),
      KEYS_GRPC_ADDRESS: `127.0.0.1:${keysGrpc}`,
      BILLING_GRPC_ADDRESS: `127.0.0.1:${billingGrpc}`,
      GENERATIONS_GRPC_ADDRESS: `127.0.0.1:${generationsGrpc}`,
    };
    const control: Array<[string, string, string, string | undefined]> = [
      ["keys", "apps/keys/dist/main.js", keysHttp as string, keysGrpc],
      ["billing", "apps/billing/dist/main.js", billingHttp as string, billingGrpc],
      ["generations", "apps/generations/dist/main.js", generationsHttp as string, generationsGrpc],
    ];
    for (const [name, script, http, grpc] of control) {
      const app = startProcess(name, script, { ...env, HTTP_PORT: http, GRPC_PORT: grpc ?? "" });
      apps.push(app);
      await waitForHttp(`http://127.0.0.1:${http}/healthz`, app);
    }
    for (const name of ["edge-a", "edge-b"]) {
      const edgePort = await port();
      const edge = startProcess(name, "apps/edge/dist/main.js", {
        ...env,
        HTTP_PORT: edgePort,
        KEYS_HTTP_URL: `http://127.0.0.1:${keysHttp}`,
        BILLING_HTTP_URL: `http://127.0.0.1:${billingHttp}`,
        GENERATIONS_HTTP_URL: `http://127.0.0.1:${generationsHttp}`,
        OPENAI_API_KEY: "sk-upstream-test",
        OPENAI_BASE_URL: upstream.baseUrl,
      });
      apps.push(edge);
      await waitForHttp(`http://127.0.0.1:${edgePort}/readyz`, edge);
      edges.push(`http://127.0.0.1:${edgePort}`);
    }
    const created = JSON.parse(
      await runCli(CLI, ["accounts", "create", "--name", "catalog", "--credits", "5", "--json"], {
        DATABASE_URL: database.url,
      }),
    ) as { management_key: string };
    managementKey = created.management_key;
    const key = await fetch(`${edges[0]}/api/v1/keys`, {
      method: "POST",
      headers: { authorization: `Bearer ${managementKey}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "catalog e2e" }),
    });
    apiKey = ((await key.json()) as { key: string }).key;
  }, 240_000);

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.stop()));
    await upstream?.close();
    await database?.drop();
  });

  /** The model's prompt price (USD per token) as an edge serves it from its in-memory snapshot. */
  async function promptPrice(edge: string, model = MODEL): Promise<string | undefined> {
    const response = await fetch(`${edge}/v1/models`, { headers: { authorization: `Bearer ${apiKey}` } });
    const list = (await response.json()) as { data: Array<{ id: string; pricing: { prompt: string } }> };
    return list.data.find((entry) => entry.id === model)?.pricing.prompt;
  }

  /** One chat completion; its cost against the prompt/completion prices in pico-dollars per token. */
  async function chatCost(edge: string, model = MODEL) {
    const response = await fetch(`${edge}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ model, messages: [{ role: "user", content: "price check" }] }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      model: string;
      usage: { prompt_tokens: number; completion_tokens: number; cost: number };
    };
    const priced = (prompt: number, completion: number) =>
      (body.usage.prompt_tokens * prompt + body.usage.completion_tokens * completion) / 1e12;
    return { cost: body.usage.cost, model: body.model, priced };
  }

  /** Waits until every edge serves the price; answers how long each took after `since`. */
  async function visibleOnEveryEdge(price: string, since: number, model = MODEL): Promise<number[]> {
    return Promise.all(
      edges.map(async (edge) => {
        await eventually(async () => ((await promptPrice(edge, model)) === price ? true : undefined), 20_000);
        return Date.now() - since;
      }),
    );
  }

  it("a LiteLLM import: the dry run changes nothing, --apply reaches both edges and the next request is billed at it", async () => {
    for (const edge of edges) {
      const before = await chatCost(edge);
      expect(before.cost).toBeCloseTo(before.priced(150_000, 600_000), 15);
    }
    const file = join(tmpdir(), `${uniqueName("litellm")}.json`);
    writeFileSync(
      file,
      JSON.stringify({
        "gpt-4o-mini": {
          litellm_provider: "openai",
          mode: "chat",
          input_cost_per_token: 3e-7,
          output_cost_per_token: 1.2e-6,
          max_input_tokens: 128_000,
          max_output_tokens: 16_384,
        },
      }),
    );
    const cli = (...extra: string[]) =>
      runCli(CLI, ["catalog", "import", "--format", "litellm", file, "--json", ...extra], {
        DATABASE_URL: database.url,
      }).then((text) => JSON.parse(text) as { applied: boolean; changes: string[] });
    const dry = await cli();
    expect(dry.applied).toBe(false);
    expect(dry.changes).toEqual([
      `${MODEL}@openai pricing.promptPico: 150000 -> 300000`,
      `${MODEL}@openai pricing.completionPico: 600000 -> 1200000`,
    ]);
    expect((await cli("--apply")).applied).toBe(true);
    // Timed from the CLI's exit (the change is committed then), not its start-up.
    const started = Date.now();
    const took = await visibleOnEveryEdge("0.0000003", started);
    console.info(`import committed -> visible on the two edges after ${took.join(" ms, ")} ms`);
    for (const edge of edges) {
      const after = await chatCost(edge);
      expect(after.cost).toBeCloseTo(after.priced(300_000, 1_200_000), 15);
    }
  }, 60_000);

  it("the admin route through an edge: 403 for the account's management key, and an operator token's price and alias reach both edges", async () => {
    const admin = (path: string, key: string, body?: unknown) =>
      fetch(`${edges[1]}/api/v1/admin/catalog${path}`, {
        method: body === undefined ? "GET" : "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: body === undefined ? null : JSON.stringify(body),
      });
    expect((await admin("", managementKey)).status).toBe(403);
    expect(
      (await admin("/prices", managementKey, { model: MODEL, provider: "openai", pricing: { prompt: "1" } }))
        .status,
    ).toBe(403);
    const { token } = JSON.parse(
      await runCli(CLI, ["operator-token", "create", "--name", "e2e", "--json"], {
        DATABASE_URL: database.url,
      }),
    ) as { token: string };
    expect(token).toMatch(/^gw_op_[0-9a-f]{48}$/);

    const started = Date.now();
    const set = await admin("/prices", token, {
      model: MODEL,
      provider: "openai",
      pricing: { prompt: "0.0000005" },
    });
    expect(set.status).toBe(200);
    const took = await visibleOnEveryEdge("0.0000005", started);
    console.info(`admin set-price -> visible on the two edges after ${took.join(" ms, ")} ms`);
    for (const edge of edges) {
      const after = await chatCost(edge);
      // Only the prompt price was set: completion stays at the imported 1.2 USD per million.
      expect(after.cost).toBeCloseTo(after.priced(500_000, 1_200_000), 15);
    }

    const alias = await admin("/aliases", token, { alias: "openai/gpt-4o-mini-operator", model: MODEL });
    expect(alias.status).toBe(200);
    for (const edge of edges) {
      const served = await eventually(async () => {
        const call = await chatCost(edge, "openai/gpt-4o-mini-operator").catch(() => undefined);
        return call;
      }, 20_000);
      expect(served.model).toBe(MODEL);
    }
    const history = (await (await admin("/changes", token)).json()) as {
      data: Array<{ actor: string; action: string }>;
    };
    expect(history.data.slice(0, 3).map((change) => [change.actor, change.action])).toEqual([
      ["operator:e2e", "alias"],
      ["operator:e2e", "set-price"],
      [expect.stringMatching(/^cli:/), "import:litellm"],
    ]);
  }, 90_000);
});
