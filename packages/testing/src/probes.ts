import { existsSync, readFileSync } from "node:fs";
import { request } from "node:http";
import { connect } from "node:net";
import { join } from "node:path";
import { Kafka, logLevel } from "kafkajs";
import pg from "pg";

/** Whether something accepts TCP connections there; fast to fail on a closed port. */
export function portOpen(host: string, port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (open: boolean): void => {
      socket.destroy();
      resolve(open);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

export async function postgresAnswers(url: string, timeoutMs = 2000): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  client.on("error", () => {});
  try {
    await client.connect();
    await client.query("select 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** Speaks just enough RESP to AUTH (when the URL carries a password) and PING. */
export function redisAnswers(url: string, timeoutMs = 1000): Promise<boolean> {
  const parsed = new URL(url);
  const commands: string[][] = [];
  if (parsed.password) {
    const password = decodeURIComponent(parsed.password);
    commands.push(
      parsed.username ? ["AUTH", decodeURIComponent(parsed.username), password] : ["AUTH", password],
    );
  }
  commands.push(["PING"]);
  const payload = commands
    .map(
      (args) =>
        `*${args.length}\r\n${args.map((arg) => `$${Buffer.byteLength(arg)}\r\n${arg}\r\n`).join("")}`,
    )
    .join("");
  return new Promise((resolve) => {
    const socket = connect({ host: parsed.hostname || "127.0.0.1", port: Number(parsed.port || 6379) });
    let received = "";
    const done = (answered: boolean): void => {
      socket.destroy();
      resolve(answered);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once("error", () => done(false));
    socket.once("connect", () => socket.write(payload));
    socket.on("data", (chunk) => {
      received += chunk.toString("utf8");
      if (received.includes("+PONG")) done(true);
      else if (received.startsWith("-") && received.includes("\r\n")) done(false);
    });
  });
}

/** A metadata round trip, so a port that merely accepts connections is not taken for Kafka. */
export async function kafkaAnswers(brokers: string, timeoutMs = 3000): Promise<boolean> {
  const list = brokers
    .split(",")
    .map((broker) => broker.trim())
    .filter(Boolean);
  const [host, port] = splitHostPort(list[0] ?? "");
  if (!host || !(await portOpen(host, port))) return false;
  const admin = new Kafka({
    clientId: "gw-test-probe",
    brokers: list,
    logLevel: logLevel.NOTHING,
    connectionTimeout: 1000,
    requestTimeout: timeoutMs,
    retry: { retries: 0 },
  }).admin();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const attempt = (async () => {
    await admin.connect();
    await admin.listTopics();
    return true;
  })().catch(() => false);
  try {
    return await Promise.race([attempt, timeout]);
  } finally {
    clearTimeout(timer);
    await admin.disconnect().catch(() => {});
  }
}

/** The broker `infra/kafka/kafka.sh start` recorded, if any: `KAFKA_BROKERS=host:port`. */
export function recordedKafkaBrokers(root: string): string | undefined {
  const file = join(root, ".kafka", "broker.env");
  if (!existsSync(file)) return undefined;
  const match = /^KAFKA_BROKERS=(.+)$/m.exec(readFileSync(file, "utf8"));
  return match?.[1]?.trim() || undefined;
}

/**
 * Whether a Docker engine answers `/_ping` (DOCKER_HOST or the default socket). Checked before
 * testcontainers is even loaded: without an engine it would spend seconds on its own discovery.
 */
export function dockerAnswers(env: Record<string, string | undefined>, timeoutMs = 1000): Promise<boolean> {
  const host = env.DOCKER_HOST;
  let target: { socketPath: string } | { host: string; port: number };
  if (!host || host.startsWith("unix://")) {
    const socketPath = host ? host.slice("unix://".length) : "/var/run/docker.sock";
    if (!existsSync(socketPath)) return Promise.resolve(false);
    target = { socketPath };
  } else if (host.startsWith("tcp://")) {
    const [hostname, port] = splitHostPort(host.slice("tcp://".length));
    target = { host: hostname, port: port || 2375 };
  } else {
    return Promise.resolve(false);
  }
  return new Promise((resolve) => {
    const req = request({ ...target, path: "/_ping", method: "GET", timeout: timeoutMs }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on("timeout", () => req.destroy());
    req.on("error", () => resolve(false));
    req.end();
  });
}

function splitHostPort(address: string): [string, number] {
  const index = address.lastIndexOf(":");
  if (index < 0) return [address, 0];
  return [address.slice(0, index), Number(address.slice(index + 1))];
}
