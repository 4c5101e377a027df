import { connectDatabase, type Database, freePort } from "@gw/db";
import { encodeUsageRecorded } from "@gw/events";
import { catalogueCost, exampleUsageFacts } from "@gw/events/testing";
import { type FakeServer, startFakeOpenAi } from "@gw/fake-providers";
import { KafkaEventBus } from "@gw/kafka";
import { silentLogger } from "@gw/logger";
import { DEFAULT_CHARGE_POLICY } from "@gw/money";
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

// Limits through the whole split plane: keys, generations, two billing replicas sharing one Redis and
// one Postgres, and two edges (each on its own billing replica), all separate OS processes on real
// Postgres, Redis and Kafka, with a fake OpenAI-compatible upstream (the only fake).

const PRICE = { prompt: 150_000n, completion: 600_000n }; // gpt-4o-mini, pico-dollars per token
const MAX_TOKENS = 40;
// The fake upstream echoes the prompt, cut at max_tokens (4 characters a token): this prompt's echo is
// longer than 40 tokens, so every reply ends with finish_reason "length" and max_tokens of output.
const LONG = `count to forty: ${"one two three four five six seven eight nine ten ".repeat(3)}`;
// A reply of 3 tokens, for the test about holds coming down to the actual cost.
const SHORT = "count";
/** The edge's hold: (1 message × 3 + 3 primer + ⌈bytes / 2⌉) prompt tokens and max_tokens of output. */
const worstCase = (content: string): bigint =>
  BigInt(6 + Math.ceil(Buffer.byteLength(content) / 2)) * PRICE.prompt +
  BigInt(MAX_TOKENS) * PRICE.completion;
const WORST = worstCase(LONG);
/** What the fake bills a reply that reaches max_tokens: ⌈chars / 4⌉ + 6 prompt tokens, 40 completion. */
const ACTUAL = BigInt(6 + Math.ceil(LONG.length / 4)) * PRICE.prompt + BigInt(MAX_TOKENS) * PRICE.completion;
const PICO = 1_000_000_000_000n;
const FREE = "meta-llama/llama-3.3-70b-instruct:free";

interface Outcome {
  status: number;
  costPico: bigint;
  finishReason?: string;
  code?: string;
  limitSource?: string;
}

describeWith(["postgres", "redis", "kafka"], "limits across two edges and two billing replicas", () => {
  const apps: AppProcess[] = [];
  let database: TestDatabase;
  let upstream: FakeServer;
  let edges: string[] = [];
  let env: Record<string, string>;
  let ledger: Database<unknown>;
  /** API key → its account. */
  const accountIds = new Map<string, string>();

  beforeAll(async () => {
    database = await createTestDatabase();
    upstream = await startFakeOpenAi({ host: "127.0.0.1", port: 0, requireKey: "sk-upstream-test" });
    const brokers = kafkaBrokers();
    const topics = await freshTopics("limits", brokers);
    const port = async () => String(await freePort());
    const keysHttp = await port();
    const keysGrpc = await port();
    const generationsHttp = await port();
    const generationsGrpc = await port();
    env = {
      ...topics,
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      DATABASE_URL: database.url,
      REDIS_URL: serviceUrl("redis"),
      REDIS_KEY_PREFIX: uniqueName("limits"),
      KAFKA_BROKERS: brokers.join(","),
      KEYS_GRPC_ADDRESS: `127.0.0.1:${keysGrpc}`,
      GENERATIONS_GRPC_ADDRESS: `127.0.0.1:${generationsGrpc}`,
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
    const replicas: Array<{ app: AppProcess; http: string; grpc: string }> = [];
    for (const name of ["a", "b"]) {
      const http = await port();
      const grpc = await port();
      const app = startProcess(`billing-${name}`, "apps/billing/dist/main.js", {
        ...env,
        HTTP_PORT: http,
        GRPC_PORT: grpc,
      });
      apps.push(app);
      await waitForHttp(`http://127.0.0.1:${http}/healthz`, app);
      replicas.push({ app, http, grpc });
    }
    await waitForHttp(`http://127.0.0.1:${keysHttp}/healthz`, keys);
    await waitForHttp(`http://127.0.0.1:${generationsHttp}/healthz`, generations);
    ledger = connectDatabase({ url: database.url, schema: "billing" });
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
          TOGETHER_API_KEY: "sk-upstream-test",
          TOGETHER_BASE_URL: upstream.baseUrl,
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
    await ledger?.close();
    await database?.drop();
  });

  /** An account from the operator CLI (credits are purchases) and one API key on it. */
  async function account(creditsUsd: string | undefined, keyLimitUsd?: number) {
    const args = ["accounts", "create", "--name", "limits", "--json"];
    if (creditsUsd) args.push("--credits", creditsUsd);
    const created = JSON.parse(
      await runCli("apps/standalone/dist/cli/main.js", args, { DATABASE_URL: database.url }),
    ) as { account_id: string; management_key: string };
    const response = await fetch(`${edges[0]}/api/v1/keys`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${created.management_key}` },
      body: JSON.stringify({
        name: "limited",
        ...(keyLimitUsd === undefined ? {} : { limit: keyLimitUsd, limit_reset: "daily" }),
      }),
    });
    expect(response.status).toBe(201);
    accountIds.set(((await response.clone().json()) as { key: string }).key, created.account_id);
    return ((await response.json()) as { key: string }).key;
  }

  async function chat(
    edge: string,
    key: string,
    model: string,
    content = LONG,
  ): Promise<Outcome & { headers: Headers }> {
    const response = await fetch(`${edge}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body: JSON.stringify({ model, max_tokens: MAX_TOKENS, messages: [{ role: "user", content }] }),
    });
    const body = (await response.json()) as {
      usage?: { cost: number };
      choices?: Array<{ finish_reason?: string }>;
      error?: { code?: number; metadata?: { limit_source?: string; reason?: string } };
    };
    return {
      status: response.status,
      headers: response.headers,
      costPico: body.usage ? BigInt(Math.round(body.usage.cost * 1e12)) : 0n,
      ...(body.choices?.[0]?.finish_reason ? { finishReason: body.choices[0].finish_reason } : {}),
      ...(body.error?.metadata?.reason ? { code: body.error.metadata.reason } : {}),
      ...(body.error?.metadata?.limit_source ? { limitSource: body.error.metadata.limit_source } : {}),
    };
  }

  /** 200 requests at once, alternating between the two edges. */
  const fire = (key: string) =>
    Promise.all(
      Array.from({ length: 200 }, (_, i) => chat(edges[i % 2] as string, key, "openai/gpt-4o-mini")),
    );

  async function keyUsage(key: string, admitted: number, costs: bigint): Promise<bigint> {
    // The ledger has every usage event once their sum shows up in /v1/key (exact to the pico).
    return eventually(async () => {
      const info = (await (
        await fetch(`${edges[1]}/v1/key`, { headers: { authorization: `Bearer ${key}` } })
      ).json()) as { data: { usage: number } };
      const usage = BigInt(Math.round(info.data.usage * 1e12));
      return admitted > 0 && usage === costs ? usage : undefined;
    }, 60_000);
  }

  const report = (name: string, limit: bigint, spent: bigint, outcomes: Outcome[]) => {
    const admitted = outcomes.filter((outcome) => outcome.status === 200);
    const refused = outcomes.filter((outcome) => outcome.status === 402);
    const figures = {
      limitUsd: Number(limit) / 1e12,
      spentUsd: Number(spent) / 1e12,
      overshootUsd: Number(spent > limit ? spent - limit : 0n) / 1e12,
      admitted: admitted.length,
      refused402: refused.length,
      worstCaseUsd: Number(WORST) / 1e12,
      actualPerReplyUsd: Number(ACTUAL) / 1e12,
      meanActualUsd: admitted.length ? Number(spent) / admitted.length / 1e12 : 0,
    };
    console.log(`overshoot through the edges, ${name}: ${JSON.stringify(figures)}`);
  };

  /**
   * Every admitted reply reached max_tokens, so it cost what the fake bills for that (ACTUAL, over 80%
   * of the hold): 200 such replies would cost about 3.3 times the budget, so the budget holds only
   * because admission refused the rest.
   */
  function expectNearWorstCase(admitted: Outcome[], refused: Outcome[], budget: bigint): void {
    expect(ACTUAL * 10n).toBeGreaterThan(WORST * 8n);
    expect(200n * ACTUAL).toBeGreaterThan(3n * budget);
    expect(admitted.map((outcome) => outcome.finishReason)).toEqual(admitted.map(() => "length"));
    expect(admitted.map((outcome) => outcome.costPico)).toEqual(admitted.map(() => ACTUAL));
    expect(refused.length).toBeGreaterThan(100);
  }

  it("200 concurrent requests on a key whose daily limit covers ~50 worst cases never spend past it", async () => {
    const limit = 50n * WORST;
    const key = await account("10", Number(limit) / 1e12);
    const outcomes = await fire(key);
    const admitted = outcomes.filter((outcome) => outcome.status === 200);
    const refused = outcomes.filter((outcome) => outcome.status !== 200);
    expect(refused.every((outcome) => outcome.status === 402 && outcome.code === "quota_exceeded")).toBe(
      true,
    );
    expect(refused.every((outcome) => outcome.limitSource === "key")).toBe(true);
    expectNearWorstCase(admitted, refused, limit);
    const costs = admitted.reduce((sum, outcome) => sum + outcome.costPico, 0n);
    const spent = await keyUsage(key, admitted.length, costs);
    report("key limit", limit, spent, outcomes);
    expect(admitted.length).toBeGreaterThanOrEqual(50);
    expect(spent).toBeLessThanOrEqual(limit);
  });

  it("200 concurrent requests on an account whose balance covers ~50 worst cases never overdraw it", async () => {
    const balance = 50n * WORST;
    const credits = `${balance / PICO}.${(balance % PICO).toString().padStart(12, "0")}`;
    const key = await account(credits);
    const outcomes = await fire(key);
    const admitted = outcomes.filter((outcome) => outcome.status === 200);
    const refused = outcomes.filter((outcome) => outcome.status !== 200);
    expect(
      refused.every((outcome) => outcome.status === 402 && outcome.code === "insufficient_credits"),
    ).toBe(true);
    expectNearWorstCase(admitted, refused, balance);
    const costs = admitted.reduce((sum, outcome) => sum + outcome.costPico, 0n);
    const spent = await keyUsage(key, admitted.length, costs);
    report("account balance", balance, spent, outcomes);
    expect(admitted.length).toBeGreaterThanOrEqual(50);
    expect(spent).toBeLessThanOrEqual(balance);
  });

  it("a key limit large enough to be leased is never passed either (leases first, then Admit near the end)", async () => {
    // 120 worst cases: billing leases slices of it while 64 or more remain, then each request
    // is admitted on its own. Replies cost over 80% of the worst case, so about 140 requests fit
    // in the limit; two waves of 200 must be refused in part.
    const limit = 120n * WORST;
    const key = await account("10", Number(limit) / 1e12);
    const outcomes: Outcome[] = [];
    for (let wave = 0; wave < 2; wave++) outcomes.push(...(await fire(key)));
    const admitted = outcomes.filter((outcome) => outcome.status === 200);
    const refused = outcomes.filter((outcome) => outcome.status !== 200);
    expect(refused.every((outcome) => outcome.status === 402 && outcome.code === "quota_exceeded")).toBe(
      true,
    );
    const costs = admitted.reduce((sum, outcome) => sum + outcome.costPico, 0n);
    const spent = await keyUsage(key, admitted.length, costs);
    report("key limit, leased", limit, spent, outcomes);
    expect(admitted.map((outcome) => outcome.finishReason)).toEqual(admitted.map(() => "length"));
    expect(refused.length).toBeGreaterThan(200);
    expect(spent).toBeLessThanOrEqual(limit);
    // More than 120 requests: finished requests gave the difference to their worst case back.
    expect(admitted.length).toBeGreaterThan(120);
  });

  it("admits 20 :free requests a minute across both edges and answers the 21st with 429 and headers", async () => {
    // 21 requests must land in one UTC minute.
    while (new Date().getUTCSeconds() > 40) await new Promise((resolve) => setTimeout(resolve, 500));
    const key = await account(undefined);
    const model = FREE;
    for (let index = 0; index < 20; index++) {
      expect((await chat(edges[index % 2] as string, key, model)).status).toBe(200);
    }
    const refused = await chat(edges[0] as string, key, model);
    expect(refused).toMatchObject({ status: 429, limitSource: "free:minute" });
    expect(refused.headers.get("x-ratelimit-limit")).toBe("20");
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
    const reset = Number(refused.headers.get("x-ratelimit-reset"));
    expect(reset % 60_000).toBe(0);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect((await chat(edges[1] as string, key, model)).status).toBe(429);
  });

  it("admits exactly 20 of 60 concurrent :free requests of one account across both edges", async () => {
    while (new Date().getUTCSeconds() > 45) await new Promise((resolve) => setTimeout(resolve, 500));
    const key = await account(undefined);
    const model = FREE;
    const outcomes = await Promise.all(
      Array.from({ length: 60 }, (_, i) => chat(edges[i % 2] as string, key, model)),
    );
    expect(outcomes.filter((outcome) => outcome.status === 200)).toHaveLength(20);
    expect(outcomes.filter((outcome) => outcome.status === 429)).toHaveLength(40);
  });

  /**
   * Records `count` :free requests served earlier today for the key's account, as usage events on
   * Kafka (what the edges would have emitted), and waits until billing has them in the ledger.
   */
  async function servedEarlierToday(key: string, count: number): Promise<void> {
    const accountId = accountIds.get(key) as string;
    // Earlier today but not this minute (the day must be older than a minute: wait if it is not).
    while (Date.now() % 86_400_000 < 70_000) await new Promise((resolve) => setTimeout(resolve, 1_000));
    const createdAt = new Date(Date.now() - 65_000);
    const bus = new KafkaEventBus({
      brokers: env.KAFKA_BROKERS?.split(",") ?? [],
      clientId: "seed",
      logger: silentLogger(),
    });
    for (let index = 0; index < count; index++) {
      // Built by the edge's own encoder from a served :free request (catalogue price 0).
      const facts = exampleUsageFacts({
        accountId,
        keyHash: "d".repeat(64),
        model: FREE,
        provider: "together",
        cost: catalogueCost(0n, 0n),
        startedAt: createdAt.getTime(),
        generationStartedAt: createdAt.getTime(),
        endedAt: createdAt.getTime() + 100,
      });
      const event = encodeUsageRecorded(facts, DEFAULT_CHARGE_POLICY);
      bus.publish(env.TOPIC_USAGE as string, event.key, event.value, event.headers);
    }
    await bus.flush();
    await bus.close();
    await eventually(async () => {
      const result = await ledger.pool.query<{ count: string }>(
        "select count(*)::text as count from ledger_entries where account_id = $1 and kind = 'usage'",
        [accountId],
      );
      return Number(result.rows[0]?.count) === count ? true : undefined;
    }, 60_000);
  }

  it("answers the 51st :free request of a UTC day with 429 free:day, the 50th admitted, on another edge", async () => {
    const key = await account(undefined);
    await servedEarlierToday(key, 49);
    expect((await chat(edges[0] as string, key, FREE)).status).toBe(200);
    const refused = await chat(edges[1] as string, key, FREE);
    expect(refused).toMatchObject({ status: 429, limitSource: "free:day" });
    expect(refused.headers.get("x-ratelimit-limit")).toBe("50");
  });

  it("answers the 1,001st :free request of a day with 429 after 5 USD purchased through the CLI", async () => {
    const key = await account("5");
    await servedEarlierToday(key, 999);
    expect((await chat(edges[1] as string, key, FREE)).status).toBe(200);
    const refused = await chat(edges[0] as string, key, FREE);
    expect(refused).toMatchObject({ status: 429, limitSource: "free:day" });
    expect(refused.headers.get("x-ratelimit-limit")).toBe("1000");
  });

  it("brings each hold down to the actual cost after a success and releases it when the provider fails", async () => {
    // A balance of three long worst cases, four short ones: a hold that was never settled or
    // released would block the 5th short request.
    const balance = 3n * WORST;
    expect(5n * worstCase(SHORT)).toBeGreaterThan(balance);
    const key = await account(`0.${balance.toString().padStart(12, "0")}`);
    upstream.setScenario({ name: "fail", status: 400 });
    try {
      for (let index = 0; index < 8; index++) {
        const failed = await chat(edges[index % 2] as string, key, "openai/gpt-4o-mini", SHORT);
        // The provider's error, not a 402: the previous failures' holds were released.
        expect(failed.status).toBeGreaterThanOrEqual(400);
        expect(failed.status).not.toBe(402);
      }
    } finally {
      upstream.resetScenario();
    }
    // Each short success costs about 1/8 of its hold; settled, ten in a row fit in the balance.
    for (let index = 0; index < 10; index++) {
      expect((await chat(edges[index % 2] as string, key, "openai/gpt-4o-mini", SHORT)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
});
