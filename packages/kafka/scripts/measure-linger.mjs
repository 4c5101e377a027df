// Measures what the producer's linger costs and saves (docs/scaling.md, "The usage producer's linger
// and batch size"). For each linger it publishes usage-sized events through KafkaEventBus (journal on,
// as on the edge) at a steady rate and reads them back with a consumer group, then prints:
//   requests/event  produce requests (one per sendBatch: one broker) per event published
//   events/request  their inverse, the mean batch
//   p50/p99 ms      publish → consumer handler (end-to-end delay, fetch wait included)
//   broker cpu ms   the broker process's CPU time during the run (/proc; noisy on a shared machine)
// Usage (after `pnpm build` and `bash infra/kafka/kafka.sh start`):
//   KAFKA_BROKERS=… node packages/kafka/scripts/measure-linger.mjs [rate/s] [seconds] [lingers,…] [batch size]
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { registry } from "@gw/metrics";
import { ensureTopics, KafkaEventBus } from "../dist/index.js";

const brokers = (process.env.KAFKA_BROKERS ?? "").split(",").filter(Boolean);
if (brokers.length === 0) throw new Error("KAFKA_BROKERS is not set");
const rate = Number(process.argv[2] ?? 1000);
const seconds = Number(process.argv[3] ?? 5);
const lingers = (process.argv[4] ?? "0,5,20,50").split(",").map(Number);
const batchSize = Number(process.argv[5] ?? 500);
const brokerPid = process.env.KAFKA_PID;
const EVENT = new Uint8Array(420); // about a usage.v1 event's size on the wire

const brokerCpuMs = () => {
  if (!brokerPid) return Number.NaN;
  const fields = readFileSync(`/proc/${brokerPid}/stat`, "utf8").split(") ")[1].split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in 100 Hz ticks
};

async function publishStats() {
  const metric = (await registry.getMetricsAsJSON()).find(
    (m) => m.name === "gw_kafka_publish_duration_seconds",
  );
  const value = (suffix) =>
    metric?.values.find((v) => v.metricName?.endsWith(suffix) && v.labels.outcome === "ok")?.value ?? 0;
  return { requests: value("_count"), seconds: value("_sum") };
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function run(lingerMs) {
  const topic = `linger-measure-${lingerMs}-${process.pid}-${Date.now()}`;
  await ensureTopics(brokers, [topic]);
  const spool = mkdtempSync(join(tmpdir(), "linger-"));
  const bus = new KafkaEventBus({
    brokers,
    clientId: `linger-${lingerMs}-${process.pid}`,
    producer: { lingerMs, batchSize },
    ...(process.env.NO_JOURNAL ? {} : { spool: { directory: spool, journal: true } }),
  });
  const total = rate * seconds;
  const delays = [];
  let received = 0;
  let done;
  const all = new Promise((resolve) => {
    done = resolve;
  });
  const subscription = await bus.subscribe({
    topic,
    groupId: `linger-${process.pid}-${lingerMs}`,
    batchHandler: async (messages) => {
      const now = performance.timeOrigin + performance.now();
      for (const message of messages) delays.push(now - Number(message.headers.sentAt));
      received += messages.length;
      if (received >= total) done();
    },
  });
  await new Promise((resolve) => setTimeout(resolve, 3000)); // the group settles first
  const before = await publishStats();
  const cpuBefore = brokerCpuMs();
  const started = performance.now();
  let sent = 0;
  await new Promise((resolve) => {
    const tick = setInterval(() => {
      const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * rate));
      for (; sent < due; sent++) {
        bus.publish(topic, `acct-${sent % 50}`, EVENT, {
          sentAt: String(performance.timeOrigin + performance.now()),
        });
      }
      if (sent >= total) {
        clearInterval(tick);
        resolve();
      }
    }, 1);
  });
  await Promise.race([all, new Promise((resolve) => setTimeout(resolve, 30_000))]);
  const after = await publishStats();
  const requests = after.requests - before.requests;
  const cpu = brokerCpuMs() - cpuBefore;
  await subscription.stop();
  await bus.close();
  rmSync(spool, { recursive: true, force: true });
  delays.sort((a, b) => a - b);
  return {
    lingerMs,
    events: total,
    received,
    produceRequests: requests,
    requestsPerEvent: Number((requests / total).toFixed(4)),
    eventsPerRequest: Number((total / requests).toFixed(1)),
    sendMs: Math.round(((after.seconds - before.seconds) / requests) * 1000),
    p50Ms: Math.round(percentile(delays, 50)),
    p99Ms: Math.round(percentile(delays, 99)),
    brokerCpuMsPerThousandEvents: Number(((cpu / total) * 1000).toFixed(1)),
  };
}

const results = [];
for (const linger of lingers) results.push(await run(linger));
console.table(results);
process.exit(0);
