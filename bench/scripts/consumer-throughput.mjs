// Measures one usage consumer (billing or generations) as its own process, as production runs it:
// starts the app's dist/main.js on a fresh database and fresh topics, publishes N usage events once it
// is healthy, and reports events/s consumed and the app process's CPU per event (from /proc, user +
// system). Postgres' own CPU is not included. Not a test: the numbers depend on the machine and load.
//
//   cd /work/main && source scripts/env.sh && pnpm build
//   node bench/scripts/consumer-throughput.mjs billing 20000
//   node bench/scripts/consumer-throughput.mjs generations 20000
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { connectDatabase } from "@gw/db";
import { ensureTopics, KafkaEventBus } from "@gw/kafka";
import { silentLogger } from "@gw/logger";
import { generateServiceKeys, serviceAuthEnvFor } from "@gw/rpc";
import { benchUsageEvent } from "./usage-event.mjs";

const app = process.argv[2];
const events = Number(process.argv[3] ?? 20_000);
const table = { billing: "billing.ledger_entries", generations: "generations.generations" }[app];
if (!table) throw new Error("usage: consumer-throughput.mjs billing|generations [events]");

const brokers = (
  process.env.KAFKA_BROKERS ??
  readFileSync(".kafka/broker.env", "utf8").match(/KAFKA_BROKERS=(.*)/)?.[1] ??
  ""
).split(",");
const server = process.env.PG_SERVER_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const stamp = `${Date.now().toString(36)}${randomBytes(3).toString("hex")}`;
const databaseName = `gw_throughput_${stamp}`;
const ticksPerSecond = 100;

const admin = connectDatabase({ url: server, schema: "public" });
await admin.pool.query(`create database "${databaseName}"`);
const databaseUrl = new URL(server);
databaseUrl.pathname = `/${databaseName}`;
const topics = {
  TOPIC_USAGE: `throughput.usage.${stamp}`,
  TOPIC_KEY_CHANGES: `throughput.key-changes.${stamp}`,
  TOPIC_PAYMENTS: `throughput.payments.${stamp}`,
};
await ensureTopics(
  brokers,
  Object.values(topics).map((name) => ({ name, partitions: 3 })),
);

const [httpPort, grpcPort, keysPort] = [await freePort(), await freePort(), await freePort()];
// The control plane's apps refuse to start without their service key and their callers' public keys
// (services authenticate each other): a fresh set per run, as the bench's split plane makes one.
const child = spawn(process.execPath, [`apps/${app}/dist/main.js`], {
  env: {
    ...process.env,
    ...serviceAuthEnvFor(app, generateServiceKeys()),
    ...topics,
    HOST: "127.0.0.1",
    LOG_LEVEL: "warn",
    DATABASE_URL: databaseUrl.toString(),
    REDIS_URL: "redis://127.0.0.1:6379",
    REDIS_KEY_PREFIX: `throughput-${stamp}`,
    KAFKA_BROKERS: brokers.join(","),
    KEYS_GRPC_ADDRESS: `127.0.0.1:${keysPort}`,
    HTTP_PORT: String(httpPort),
    GRPC_PORT: String(grpcPort),
  },
  stdio: ["ignore", "inherit", "inherit"],
});
const database = connectDatabase({ url: databaseUrl.toString(), schema: "public" });
try {
  await waitForHealth(`http://127.0.0.1:${httpPort}/healthz`);
  // The consumer joins its group in the background; let it settle so the join is not measured.
  await sleep(3000);
  const cpuBefore = cpuTicks(child.pid);
  const started = performance.now();
  await publish(topics.TOPIC_USAGE);
  const published = performance.now();
  while ((await count()) < events) await sleep(100);
  const seconds = (performance.now() - started) / 1000;
  const cpuSeconds = (cpuTicks(child.pid) - cpuBefore) / ticksPerSecond;
  console.log(
    JSON.stringify({
      app,
      events,
      publishSeconds: Number(((published - started) / 1000).toFixed(2)),
      seconds: Number(seconds.toFixed(2)),
      eventsPerSecond: Math.round(events / seconds),
      cpuSeconds,
      cpuMsPerEvent: Number(((cpuSeconds * 1000) / events).toFixed(4)),
    }),
  );
} finally {
  child.kill("SIGTERM");
  await new Promise((resolve) => child.once("exit", resolve));
  await database.close();
  await admin.pool.query(`drop database if exists "${databaseName}" with (force)`);
  await admin.close();
}

async function publish(topic) {
  const bus = new KafkaEventBus({ brokers, clientId: `throughput-${stamp}`, logger: silentLogger() });
  for (let index = 0; index < events; index++) {
    const event = benchUsageEvent(index, "acct_tp_");
    bus.publish(topic, event.key, event.value, event.headers);
    // Keep under the publisher's memory bound (it would spill to a spool or drop beyond it).
    if (bus.backlog() >= 5000) await bus.flush();
  }
  await bus.flush();
  await bus.close();
}

async function count() {
  const result = await database.pool.query(`select count(*)::int as n from ${table}`);
  return result.rows[0]?.n ?? 0;
}

function cpuTicks(pid) {
  // Fields after the command name; utime and stime are the 14th and 15th fields of the line.
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(fields[11]) + Number(fields[12]);
}

async function waitForHealth(url) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${app} exited with ${child.exitCode}`);
    const ok = await fetch(url).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    await sleep(200);
  }
  throw new Error(`${app} did not become healthy`);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
