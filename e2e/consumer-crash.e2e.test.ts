import { randomUUID } from "node:crypto";
import { connectDatabase, type Database, freePort } from "@gw/db";
import { encodeUsageRecorded, newGenerationId, type UsageFacts } from "@gw/events";
import { catalogueCost, exampleUsageFacts } from "@gw/events/testing";
import { KafkaEventBus } from "@gw/kafka";
import { silentLogger } from "@gw/logger";
import { DEFAULT_CHARGE_POLICY, picoToDecimalString } from "@gw/money";
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

// Exactly-once effects from at-least-once delivery: the billing and generations consumers are killed
// with SIGKILL in the middle of a batch (offsets of handled messages not all committed), restarted,
// and every event must end up applied once in the ledger and in the generation table.

// Enough that batch consumers (thousands of events/s) are still part-way through when the poll below
// first sees 100 rows of each; the test asserts it (a kill after the first half was applied would
// interrupt nothing). The second half is published only after the kill, so the restarted consumers
// always pick up where the killed ones left off.
const EVENTS = 20_000;
const HALF = EVENTS / 2;
const ACCOUNTS = 6;
/** Every 10th event is published twice, as a producer retry would. */
const DUPLICATE_EVERY = 10;

describeWith(["postgres", "redis", "kafka"], "usage consumers killed mid-batch", () => {
  let database: TestDatabase;
  let client: Database<unknown>;
  let env: Record<string, string>;
  const apps: AppProcess[] = [];
  const accounts = Array.from({ length: ACCOUNTS }, () => `acct_${randomUUID()}`);
  const expected = new Map<string, bigint>();
  let brokerList: string[] = [];
  let usageTopic = "";

  beforeAll(async () => {
    database = await createTestDatabase();
    const brokers = kafkaBrokers();
    const topics = await freshTopics("crash", brokers);
    env = {
      ...topics,
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      DATABASE_URL: database.url,
      REDIS_URL: serviceUrl("redis"),
      REDIS_KEY_PREFIX: uniqueName("crash"),
      KAFKA_BROKERS: brokers.join(","),
      // Nothing here calls keys; its address only has to parse.
      KEYS_GRPC_ADDRESS: `127.0.0.1:${await freePort()}`,
    };
    brokerList = brokers;
    usageTopic = topics.TOPIC_USAGE;
    await publishEvents(0, HALF);
    client = connectDatabase({ url: database.url, schema: "public" });
  }, 120_000);

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.stop()));
    await client?.close();
    await database?.drop();
  });

  /** Events [from, to) and, with `markers`, one zero-cost event per account after them. */
  async function publishEvents(from: number, to: number, markers: string[] = []): Promise<void> {
    // Every copy queued at once: above the default bound (10,000), events would be dropped.
    const bus = new KafkaEventBus({
      brokers: brokerList,
      clientId: "crash-test",
      logger: silentLogger(),
      producer: { maxQueued: 2 * EVENTS },
    });
    const send = (facts: UsageFacts, copies: number): void => {
      const event = encodeUsageRecorded(facts, DEFAULT_CHARGE_POLICY);
      for (let copy = 0; copy < copies; copy++)
        bus.publish(usageTopic, event.key, event.value, event.headers);
    };
    for (let index = from; index < to; index++) {
      const accountId = accounts[index % ACCOUNTS] as string;
      const costPico = 1_000_003n * BigInt(index + 1);
      expected.set(accountId, (expected.get(accountId) ?? 0n) + costPico);
      // Built by the edge's own encoder, from a request whose catalogue price is costPico.
      const facts = exampleUsageFacts({
        accountId,
        keyHash: "c".repeat(64),
        cost: catalogueCost(0n, costPico),
      });
      send(facts, index % DUPLICATE_EVERY === 0 ? 2 : 1);
    }
    for (const [index, generationId] of markers.entries()) {
      const accountId = accounts[index] as string;
      send(exampleUsageFacts({ accountId, generationId, cost: catalogueCost(0n, 0n) }), 1);
    }
    await bus.flush();
    await bus.close();
  }

  const count = async (table: string): Promise<number> => {
    const result = await client.pool.query<{ count: string }>(`select count(*)::text as count from ${table}`);
    return Number(result.rows[0]?.count ?? 0);
  };

  async function startConsumers(round: number): Promise<AppProcess[]> {
    const ports = [await freePort(), await freePort(), await freePort(), await freePort()].map(String);
    const billing = startProcess(`billing-${round}`, "apps/billing/dist/main.js", {
      ...env,
      HTTP_PORT: ports[0] as string,
      GRPC_PORT: ports[1] as string,
    });
    const generations = startProcess(`generations-${round}`, "apps/generations/dist/main.js", {
      ...env,
      HTTP_PORT: ports[2] as string,
      GRPC_PORT: ports[3] as string,
    });
    apps.push(billing, generations);
    await waitForHttp(`http://127.0.0.1:${ports[0]}/healthz`, billing);
    await waitForHttp(`http://127.0.0.1:${ports[2]}/healthz`, generations);
    return [billing, generations];
  }

  it("applies each event once after a SIGKILL in the middle of consuming", async () => {
    const first = await startConsumers(1);
    // Kill as soon as both are part-way through the topic.
    const progress = await eventually(async () => {
      const [ledger, records] = [
        await count("billing.ledger_entries"),
        await count("generations.generations"),
      ];
      return ledger >= 100 && records >= 100 ? { ledger, records } : undefined;
    }, 60_000);
    for (const app of first) app.child.kill("SIGKILL");
    await Promise.all(first.map((app) => app.stop()));
    const atKill = {
      ledger: await count("billing.ledger_entries"),
      records: await count("generations.generations"),
    };
    console.log(
      `consumers killed at ${JSON.stringify(atKill)} of ${EVENTS} events (seen ${JSON.stringify(progress)})`,
    );
    // Landed mid-topic: part of the first half applied, not all of it (strictly less than HALF), in
    // both consumers. Published before any consumer started, the first half cannot be exceeded by
    // construction; finishing it before the kill would mean the kill interrupted nothing.
    expect(atKill.ledger).toBeGreaterThan(0);
    expect(atKill.records).toBeGreaterThan(0);
    expect(atKill.ledger, "the kill landed after the billing consumer finished").toBeLessThan(HALF);
    expect(atKill.records, "the kill landed after the generations consumer finished").toBeLessThan(HALF);

    // The rest, then one marker per account: same key, same partition, so a consumer that has the
    // markers has had every redelivery of that partition's earlier events.
    const markers = accounts.map(() => newGenerationId());
    await publishEvents(HALF, EVENTS, markers);
    await startConsumers(2);
    const markerRows = async (table: "billing.ledger_entries" | "generations.generations") => {
      const column = table === "billing.ledger_entries" ? "event_id" : "id";
      const result = await client.pool.query<{ count: string }>(
        `select count(*)::text as count from ${table} where ${column} = any($1)`,
        [markers],
      );
      return Number(result.rows[0]?.count ?? 0);
    };
    await eventually(
      async () =>
        (await markerRows("billing.ledger_entries")) === ACCOUNTS &&
        (await markerRows("generations.generations")) === ACCOUNTS
          ? true
          : undefined,
      90_000,
    );
    expect(await count("billing.ledger_entries")).toBe(EVENTS + ACCOUNTS);
    expect(await count("generations.generations")).toBe(EVENTS + ACCOUNTS);
    const sums = await client.pool.query<{ account_id: string; spent: string }>(
      "select account_id, (-sum(amount))::text as spent from billing.ledger_entries group by account_id",
    );
    const spent = new Map(sums.rows.map((row) => [row.account_id, row.spent]));
    for (const [account, pico] of expected) {
      expect(spent.get(account)).toBe(picoToDecimalString(pico));
    }
  }, 240_000);
});
