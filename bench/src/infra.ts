import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";

const run = promisify(execFile);

/** Real services for the split plane, or the reason the bench falls back to the embedded default. */
export type Infrastructure =
  | {
      kind: "split";
      databaseServerUrl: string;
      redisUrl: string;
      kafkaBrokers: string;
      stop(): Promise<void>;
    }
  | { kind: "embedded"; reason: string };

const STANDARD = {
  postgres: "postgres://postgres@127.0.0.1:5432/test",
  redis: "redis://127.0.0.1:6379",
};

export async function resolveInfrastructure(root: string): Promise<Infrastructure> {
  const databaseServerUrl = process.env.DATABASE_URL || STANDARD.postgres;
  const redisUrl = process.env.REDIS_URL || STANDARD.redis;
  if (!(await postgresAnswers(databaseServerUrl))) {
    return { kind: "embedded", reason: `no PostgreSQL at ${redact(databaseServerUrl)}` };
  }
  const redis = new URL(redisUrl);
  if (!(await portOpen(redis.hostname, Number(redis.port || 6379)))) {
    return { kind: "embedded", reason: `no Redis at ${redis.host}` };
  }
  const kafka = await resolveKafka(root);
  if (typeof kafka === "string") return { kind: "embedded", reason: kafka };
  return { kind: "split", databaseServerUrl, redisUrl, kafkaBrokers: kafka.brokers, stop: kafka.stop };
}

/** `KAFKA_BROKERS`, the shared local broker, or a private one this run starts and stops. */
async function resolveKafka(root: string): Promise<{ brokers: string; stop(): Promise<void> } | string> {
  const none = async (): Promise<void> => {};
  const configured = process.env.KAFKA_BROKERS || sharedBroker(root);
  if (configured) {
    const [host, port] = (configured.split(",")[0] ?? "").split(":");
    if (host && (await portOpen(host, Number(port)))) return { brokers: configured, stop: none };
  }
  const script = join(root, "infra/kafka/kafka.sh");
  const env = { ...process.env, GW_KAFKA_STATE_DIR: join(root, `.kafka/bench-${process.pid}`) };
  try {
    const { stdout } = await run("bash", [script, "start"], { env, timeout: 180_000 });
    const brokers = /KAFKA_BROKERS=(\S+)/.exec(stdout)?.[1];
    if (!brokers) return `infra/kafka/kafka.sh start printed no KAFKA_BROKERS: ${stdout}`;
    return { brokers, stop: () => run("bash", [script, "stop"], { env, timeout: 60_000 }).then(none) };
  } catch (error) {
    return `no Kafka (KAFKA_BROKERS unset, infra/kafka/kafka.sh start failed: ${(error as Error).message.split("\n")[0]})`;
  }
}

function sharedBroker(root: string): string | undefined {
  const file = join(root, ".kafka/broker.env");
  if (!existsSync(file)) return undefined;
  return /KAFKA_BROKERS=(\S+)/.exec(readFileSync(file, "utf8"))?.[1];
}

/** A fresh database for one bench run, dropped at the end. */
export async function createDatabase(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `gw_bench_${process.pid}_${Date.now()}`;
  await withClient(serverUrl, (client) => client.query(`create database "${name}"`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await withClient(serverUrl, (client) => client.query(`drop database if exists "${name}" with (force)`));
    },
  };
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  client.on("error", () => {});
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => {});
  }
}

async function postgresAnswers(url: string): Promise<boolean> {
  try {
    await withClient(url, (client) => client.query("select 1"));
    return true;
  } catch {
    return false;
  }
}

function portOpen(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (open: boolean): void => {
      socket.destroy();
      resolve(open);
    };
    socket.setTimeout(500, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

function redact(url: string): string {
  const parsed = new URL(url);
  parsed.password = "";
  return parsed.toString();
}
