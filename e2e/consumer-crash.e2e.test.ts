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
import { type Deliveries, followDeliveries, inBoth } from "./crash/deliveries.js";
import { type AppProcess, eventually, freshTopics, startProcess, waitForHttp } from "./processes.js";

// Exactly-once effects from at-least-once delivery: the billing and generations consumers are killed
// with SIGKILL in the middle of a batch (offsets of handled messages not all committed), restarted,
// and every event must end up applied once in the ledger and in the generation table. "Once" is counted
// here, not left to the tables' unique keys: rows per event id, and deliveries per event id from the
// consumers' own debug lines (the kill must have caused redeliveries, or dedup was never tested).

// Enough that batch consumers (thousands of events/s) are still part-way through when killMidBatch
// finds them inside their second batch or so; the test asserts it (a kill after the first half was applied would
// interrupt nothing). The second half is published only after the kill, so the restarted consumers
// always pick up where the killed ones left off.
const EVENTS = 20_000;
const HALF = EVENTS / 2;
const ACCOUNTS = 6;
/** Every 10th event is published twice, as a producer retry would. */
const DUPLICATE_EVERY = 10;

type Consumer = "billing" | "generations";
/** Where each consumer applies an event: its table and the column holding the event id. */
const APPLIED: Record<Consumer, { table: string; id: string }> = {
  billing: { table: "billing.ledger_entries", id: "event_id" },
  generations: { table: "generations.generations", id: "id" },
};
describeWith(["postgres", "redis", "kafka"], "usage consumers killed mid-batch", () => {
  let database: TestDatabase;
  let client: Database<unknown>;
  let env: Record<string, string>;
  const apps: AppProcess[] = [];
  const accounts = Array.from({ length: ACCOUNTS }, () => `acct_${randomUUID()}`);
  const expected = new Map<string, bigint>();
  /** Every event id published, with how many copies. */
  const published = new Map<string, number>();
  /** Per consumer and round (0: killed, 1: restarted), what its handler was given. */
  const delivered: Record<Consumer, Deliveries[]> = { billing: [], generations: [] };
  let brokerList: string[] = [];
  let usageTopic = "";

  beforeAll(async () => {
    database = await createTestDatabase();
    const brokers = kafkaBrokers();
    const topics = await freshTopics("crash", brokers);
    env = {
      ...topics,
      HOST: "127.0.0.1",
      // debug: the consumers print every batch's event ids (followDeliveries reads them).
      LOG_LEVEL: "debug",
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
      published.set(facts.generationId, (published.get(facts.generationId) ?? 0) + copies);
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

  /** Rows per event id as stored, so an event applied twice shows whatever the table's keys are. */
  const rowsPerId = async (consumer: Consumer): Promise<Map<string, number>> => {
    const { table, id } = APPLIED[consumer];
    const result = await client.pool.query<{ id: string; rows: number }>(
      `select ${id} as id, count(*)::integer as rows from ${table} group by ${id}`,
    );
    return new Map(result.rows.map((row) => [row.id, row.rows]));
  };

  const count = async (table: string): Promise<number> => {
    const result = await client.pool.query<{ count: string }>(`select count(*)::text as count from ${table}`);
    return Number(result.rows[0]?.count ?? 0);
  };

  /** Both consumers started; `ready` once both answer their health check. */
  async function startConsumers(
    round: number,
  ): Promise<{ apps: Record<Consumer, AppProcess>; ready: Promise<void> }> {
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
    delivered.billing.push(followDeliveries(billing));
    delivered.generations.push(followDeliveries(generations));
    const ready = Promise.all([
      waitForHttp(`http://127.0.0.1:${ports[0]}/healthz`, billing),
      waitForHttp(`http://127.0.0.1:${ports[2]}/healthz`, generations),
    ]).then(() => {});
    return { apps: { billing, generations }, ready };
  }

  /** The consumer's connection waits for a lock (the one killMidBatch holds). */
  const waitsForLock = async (consumer: Consumer): Promise<boolean> => {
    const result = await client.pool.query<{ waits: boolean }>(
      `select exists (select 1 from pg_stat_activity where datname = current_database()
         and application_name = $1 and wait_event_type = 'Lock') as waits`,
      [consumer],
    );
    return result.rows[0]?.waits === true;
  };

  const isApplied = async (consumer: Consumer, eventId: string): Promise<boolean> => {
    const { table, id } = APPLIED[consumer];
    const result = await client.pool.query(`select 1 from ${table} where ${id} = $1`, [eventId]);
    return result.rows.length > 0;
  };

  /**
   * SIGKILL in the middle of a batch, once the consumer has applied one. The test holds a SHARE lock
   * on the consumer's table, so the next batch's insert waits for it, inside the batch; once the
   * batch's line has been read (its ids are known; it is the last one, and not applied), the kill
   * lands there. Its offsets are committed only after the insert, so the restarted consumer must be
   * given that batch again. generations' insert is one statement: its backend, orphaned by the
   * kill, runs it once the lock is released and commits, so that batch is applied before the restart
   * and must be deduplicated; billing's transaction never commits. (Timed by the log lines alone,
   * which reach the test late under load, a kill landed between batches 1 run in 7; timed by
   * PostgreSQL alone, 1 in 3, or the batch's line died with the process.) Early in the topic, so the
   * first half is not finished first.
   */
  async function killMidBatch(consumer: Consumer, app: AppProcess): Promise<void> {
    const deadline = Date.now() + 60_000;
    const late = () => Date.now() > deadline;
    const pause = () => new Promise((resolve) => setTimeout(resolve, 10));
    const log = delivered[consumer][0] as Deliveries;
    // Until its migrations ran the table is not there (undefined_table): nothing applied yet.
    const applied = () =>
      count(APPLIED[consumer].table).catch((error: { code?: string }) => {
        if (error.code === "42P01") return 0;
        throw error;
      });
    while (!late() && (await applied()) === 0) await pause();
    const holder = await client.pool.connect();
    try {
      await holder.query("begin");
      await holder.query(`lock table ${APPLIED[consumer].table} in share mode`);
      for (;;) {
        if (late())
          throw new Error(
            `${consumer}: never seen applying a batch, or waiting in the next:\n${app.output()}`,
          );
        const lastId = log.lastId();
        if (lastId !== undefined && (await waitsForLock(consumer)) && !(await isApplied(consumer, lastId)))
          break;
        await pause();
      }
      app.child.kill("SIGKILL");
      await app.stop();
    } finally {
      await holder.query("rollback");
      holder.release();
    }
  }

  it("applies each event once after a SIGKILL in the middle of consuming", async () => {
    // Each killed part-way through the topic, in the middle of a batch: watched from its start (a
    // consumer can be through thousands of events before the other answers its health check).
    const { apps: first, ready } = await startConsumers(1);
    ready.catch(() => {});
    await Promise.all([
      killMidBatch("billing", first.billing),
      killMidBatch("generations", first.generations),
    ]);
    await Promise.all([first.billing.stop(), first.generations.stop()]);
    const atKill = {
      ledger: await count("billing.ledger_entries"),
      records: await count("generations.generations"),
    };
    const appliedAtKill = {
      billing: await rowsPerId("billing"),
      generations: await rowsPerId("generations"),
    };
    console.log(`consumers killed at ${JSON.stringify(atKill)} of ${EVENTS} events`);
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
    await (await startConsumers(2)).ready;
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
    for (const consumer of ["billing", "generations"] as const)
      await expectAppliedOnce(consumer, appliedAtKill[consumer]);
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

  /**
   * Per event id, without the unique keys: exactly one row for every event published (none twice,
   * none missing, none unknown), and redeliveries caused by the kill: ids the killed consumer was
   * given (its log lines say so, or its rows: it was the only consumer) that the restarted one was
   * given again. The killed one's last lines may be lost with it (the logger writes them
   * asynchronously), so its rows count as well.
   */
  async function expectAppliedOnce(consumer: Consumer, atKill: ReadonlyMap<string, number>): Promise<void> {
    const rows = await rowsPerId(consumer);
    const [killed, restarted] = delivered[consumer].map((log) => log.counts) as Map<string, number>[];
    const givenBeforeKill = new Map([...(killed ?? []), ...atKill]);
    const givenAfter = restarted ?? new Map<string, number>();
    const twice = [...rows].filter(([, stored]) => stored > 1);
    const missing = [...published.keys()].filter((id) => !rows.has(id));
    const unknown = [...rows.keys()].filter((id) => !published.has(id));
    const redelivered = inBoth(givenBeforeKill, givenAfter);
    const appliedThenRedelivered = inBoth(atKill, givenAfter);
    console.log(
      `${consumer}: ${rows.size} ids stored; ${redelivered.length} given again after the kill, ${appliedThenRedelivered.length} of them applied before the restart`,
    );
    expect(twice.slice(0, 5), `${consumer}: event ids applied more than once`).toEqual([]);
    expect(missing.slice(0, 5), `${consumer}: event ids never applied`).toEqual([]);
    expect(unknown.slice(0, 5), `${consumer}: rows for events nobody published`).toEqual([]);
    // Delivered more often than applied because of the kill, not only the published duplicates.
    expect(redelivered.length, `${consumer}: the kill caused no redelivery`).toBeGreaterThan(0);
  }
});
