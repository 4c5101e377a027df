// Node side of infra/kafka/kafka.sh: the parts that are easier with a Kafka client than with shell.
//   node admin.mjs free-ports <count>                     prints <count> free loopback ports
//   node admin.mjs cluster-id                             prints a KRaft cluster id
//   node admin.mjs wait-ready <broker> <seconds> [<pid>]  waits until the broker answers metadata
//   node admin.mjs create-topics <broker> <topics.json>   creates the listed topics (idempotent)
// kafkajs comes from packages/kafka (this folder is not a workspace package), so `pnpm install` must
// have run first; the script says so instead of failing with a resolution error.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";

function loadKafkajs() {
  const require = createRequire(new URL("../../packages/kafka/package.json", import.meta.url));
  try {
    return require("kafkajs");
  } catch {
    fail("kafkajs is not installed: run `pnpm install` at the repository root first");
  }
}

function fail(message) {
  process.stderr.write(`[kafka] ${message}\n`);
  process.exit(1);
}

async function freePorts(count) {
  // Hold every probe open until all are chosen so the same port is never handed out twice.
  const servers = [];
  const ports = [];
  for (let i = 0; i < count; i++) {
    const server = createServer();
    await new Promise((resolve, reject) => {
      server.on("error", reject);
      server.listen(0, "127.0.0.1", resolve);
    });
    servers.push(server);
    ports.push(server.address().port);
  }
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

// Kafka's Uuid prints as unpadded base64url of 16 bytes; it never hands out ids starting with "-"
// because they read like command-line flags.
function clusterId() {
  for (;;) {
    const id = randomBytes(16).toString("base64url");
    if (!id.startsWith("-")) return id;
  }
}

function admin(broker) {
  const { Kafka, logLevel } = loadKafkajs();
  const kafka = new Kafka({
    clientId: "gw-kafka-launcher",
    brokers: [broker],
    logLevel: logLevel.NOTHING,
    connectionTimeout: 1000,
    requestTimeout: 5000,
    retry: { retries: 0 },
  });
  return kafka.admin();
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitReady(broker, seconds, pid) {
  const deadline = Date.now() + seconds * 1000;
  let lastError = "no answer yet";
  while (Date.now() < deadline) {
    if (pid && !alive(pid)) fail(`broker process ${pid} exited before it answered`);
    const client = admin(broker);
    try {
      await client.connect();
      await client.listTopics();
      return;
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
    } finally {
      await client.disconnect().catch(() => {});
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  fail(`broker ${broker} did not answer a metadata request within ${seconds}s (last error: ${lastError})`);
}

async function createTopics(broker, file) {
  const { topics } = JSON.parse(readFileSync(file, "utf8"));
  const client = admin(broker);
  await client.connect();
  try {
    const existing = new Set(await client.listTopics());
    const missing = topics.filter((topic) => !existing.has(topic.name));
    if (missing.length === 0) return;
    await client.createTopics({
      waitForLeaders: true,
      topics: missing.map((topic) => ({
        topic: topic.name,
        numPartitions: topic.partitions ?? 1,
        replicationFactor: 1,
        configEntries: Object.entries(topic.configs ?? {}).map(([name, value]) => ({ name, value })),
      })),
    });
    process.stderr.write(`[kafka] created topics: ${missing.map((topic) => topic.name).join(", ")}\n`);
  } finally {
    await client.disconnect();
  }
}

const [command, ...args] = process.argv.slice(2);
switch (command) {
  case "free-ports":
    process.stdout.write(`${(await freePorts(Number(args[0] ?? 1))).join(" ")}\n`);
    break;
  case "cluster-id":
    process.stdout.write(`${clusterId()}\n`);
    break;
  case "wait-ready":
    await waitReady(args[0], Number(args[1] ?? 60), args[2] ? Number(args[2]) : undefined);
    break;
  case "create-topics":
    await createTopics(args[0], args[1]);
    break;
  default:
    fail(`unknown command: ${command ?? "(none)"}`);
}
