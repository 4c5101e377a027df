// The metering floor: the least any metering with issue 27's properties does per usage event on this
// machine, measured with the same services the split plane uses. Events of the real encoding
// (`encodeEvent(USAGE_RECORDED_V1, …)`, published by the real KafkaEventBus with its linger) at a fixed
// rate; two consumer groups (the two owners the issue keeps: money and records), each in its own process,
// each decoding every event (envelope + payload) and writing one row per event with ONE fixed-shape
// prepared `INSERT … SELECT FROM unnest(…)` and one commit per batch into a table with only its primary
// key. Nothing else: no Redis, no exactly-once reference, no rollup or health figures, no secondary index,
// no lock. Its consumers fetch as the real usage consumers do (packages/kafka consumer.ts: a fetch is
// answered at LINGER_MIN_BYTES or after USAGE_CONSUMER_LINGER_MS), so each batch is as large as theirs; with
// kafkajs' defaults (one byte, answered at once) it measured 0.905 ms per event at 1,000 events/s, more
// than the split plane's whole metering (0.724 ms at 1,179 req/s), which made it no floor.
//
// CPU per event = Δ(Kafka broker JVM + PostgreSQL postmaster tree + both consumer processes) / events,
// from /proc (the bench's own accounting). The publisher's CPU is the edge's, not metering's: not counted.
// Run on a quiet machine (other users of the shared PostgreSQL or broker are counted too).
//
//   cd /work/main && source scripts/env.sh && pnpm build
//   bash infra/kafka/kafka.sh start   # or KAFKA_BROKERS=host:port
//   node bench/scripts/metering-floor.mjs [rate=1000] [seconds=20]
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { connectDatabase } from "@gw/db";
import { decodeEnvelope, decodePayload, USAGE_CONSUMER_LINGER_MS, USAGE_RECORDED_V1 } from "@gw/events";
import { ensureTopics, KafkaEventBus, LINGER_MIN_BYTES } from "@gw/kafka";
import { silentLogger } from "@gw/logger";
import { Kafka, logLevel } from "kafkajs";
import pg from "pg";
import { listeningPid, snapshot, treeCpu } from "../dist/accounting/proc-tree.js";
import { benchUsageEvent } from "./usage-event.mjs";

const brokers = (
  process.env.KAFKA_BROKERS ??
  readFileSync(".kafka/broker.env", "utf8").match(/KAFKA_BROKERS=(.*)/)?.[1] ??
  ""
).split(",");
const server = process.env.PG_SERVER_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

if (process.argv[2] === "consume") await consume(process.argv[3], process.argv[4], process.argv[5]);
else await measure(Number(process.argv[2] ?? 1000), Number(process.argv[3] ?? 20));

async function measure(rate, seconds) {
  const stamp = `${Date.now().toString(36)}${randomBytes(3).toString("hex")}`;
  const databaseName = `gw_floor_${stamp}`;
  const topic = `floor.usage.${stamp}`;
  const events = rate * seconds;
  const admin = connectDatabase({ url: server, schema: "public" });
  await admin.pool.query(`create database "${databaseName}"`);
  const databaseUrl = new URL(server);
  databaseUrl.pathname = `/${databaseName}`;
  const database = new pg.Pool({ connectionString: databaseUrl.toString(), max: 1 });
  await database.query(`create table records (id text primary key, account_id text not null, cost bigint not null,
    prompt_tokens int not null, completion_tokens int not null, model text not null, created_at timestamptz not null)`);
  await database.query(`create table ledger (account_id text not null, id bigint generated always as identity,
    amount bigint not null, primary key (account_id, id))`);
  await ensureTopics(brokers, [{ name: topic, partitions: 3 }]);
  const script = fileURLToPath(import.meta.url);
  const children = ["records", "ledger"].map((owner) =>
    spawn(process.execPath, [script, "consume", owner, topic, databaseUrl.toString()], {
      stdio: ["ignore", "inherit", "inherit"],
    }),
  );
  try {
    // Both groups joined and idle before the clock starts.
    await sleep(8000);
    const counted = countedPids(children);
    const before = cpuOf(counted);
    const started = performance.now();
    await publish(topic, rate, seconds);
    while ((await rows(database, "records")) < events || (await rows(database, "ledger")) < events)
      await sleep(100);
    const wall = (performance.now() - started) / 1000;
    const after = cpuOf(counted);
    const perEvent = Object.fromEntries(
      Object.keys(counted).map((name) => [
        name,
        Number((((after[name] - before[name]) * 1000) / events).toFixed(4)),
      ]),
    );
    const total = Object.values(perEvent).reduce((sum, value) => sum + value, 0);
    console.log(
      JSON.stringify({
        rate,
        seconds,
        events,
        wallSeconds: Number(wall.toFixed(1)),
        cpuMsPerEvent: perEvent,
        totalMsPerEvent: Number(total.toFixed(4)),
        loadAverage: readFileSync("/proc/loadavg", "utf8").trim(),
      }),
    );
  } finally {
    for (const child of children) child.kill("SIGTERM");
    await Promise.all(children.map((child) => new Promise((resolve) => child.once("exit", resolve))));
    await database.end();
    await admin.pool.query(`drop database if exists "${databaseName}" with (force)`);
    await admin.close();
  }
}

function countedPids(children) {
  const brokerPort = Number(brokers[0].split(":").at(-1));
  const pids = {
    kafka: listeningPid(brokerPort),
    postgresql: listeningPid(Number(new URL(server).port || 5432)),
    records: children[0].pid,
    ledger: children[1].pid,
  };
  for (const [name, pid] of Object.entries(pids)) if (!pid) throw new Error(`no process found for ${name}`);
  return pids;
}

function cpuOf(pids) {
  const processes = snapshot();
  return Object.fromEntries(
    Object.entries(pids).map(([name, pid]) => {
      const tree = treeCpu(pid, processes);
      return [name, tree ? tree.ownSeconds + tree.descendantsSeconds : 0];
    }),
  );
}

/** The real encoding and the real publisher (its linger and batch size), paced at `rate` events/s. */
async function publish(topic, rate, seconds) {
  const bus = new KafkaEventBus({ brokers, clientId: `floor-${topic}`, logger: silentLogger() });
  const started = performance.now();
  for (let index = 0; index < rate * seconds; index++) {
    const due = started + (index * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    const event = benchUsageEvent(index, "acct_floor_");
    bus.publish(topic, event.key, event.value, event.headers);
  }
  await bus.flush();
  await bus.close();
}

/** One owner: a consumer group that decodes every event and writes one row each, one statement per batch. */
async function consume(owner, topic, databaseUrl) {
  const database = new pg.Client({ connectionString: databaseUrl });
  await database.connect();
  const statement =
    owner === "records"
      ? {
          name: "floor-records",
          text: `insert into records (id, account_id, cost, prompt_tokens, completion_tokens, model, created_at)
            select * from unnest($1::text[], $2::text[], $3::bigint[], $4::int[], $5::int[], $6::text[], $7::timestamptz[])`,
        }
      : {
          name: "floor-ledger",
          text: "insert into ledger (account_id, amount) select * from unnest($1::text[], $2::bigint[])",
        };
  const kafka = new Kafka({ clientId: `floor-${owner}`, brokers, logLevel: logLevel.NOTHING });
  // The real consumers' fetch shape (packages/kafka/src/consumer.ts fetchShape with lingerMs).
  const consumer = kafka.consumer({
    groupId: `floor-${owner}-${topic}`,
    maxWaitTimeInMs: USAGE_CONSUMER_LINGER_MS,
    minBytes: LINGER_MIN_BYTES,
  });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  process.once("SIGTERM", () => {
    consumer
      .disconnect()
      .then(() => database.end())
      .then(() => process.exit(0));
  });
  await consumer.run({
    eachBatch: async ({ batch }) => {
      const usages = batch.messages.map((message) =>
        decodePayload(USAGE_RECORDED_V1, decodeEnvelope(message.value)),
      );
      const values =
        owner === "records"
          ? [
              usages.map((usage) => usage.generationId),
              usages.map((usage) => usage.accountId),
              usages.map((usage) => usage.costPico.toString()),
              usages.map((usage) => usage.promptTokens),
              usages.map((usage) => usage.completionTokens),
              usages.map((usage) => usage.model),
              usages.map((usage) => usage.createdAt),
            ]
          : [usages.map((usage) => usage.accountId), usages.map((usage) => (-usage.costPico).toString())];
      await database.query("begin");
      await database.query({ ...statement, values });
      await database.query("commit");
    },
  });
}

async function rows(database, table) {
  return (await database.query(`select count(*)::int as n from ${table}`)).rows[0].n;
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
