import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { freePort } from "@gw/db";
import { ensureTopics } from "@gw/kafka";
import { generateServiceKeys, isServiceName, serviceAuthEnvFor } from "@gw/rpc";
import { kafkaBrokers, repoRoot, serviceUrl, uniqueName } from "@gw/testing";
import { type ChildApp, startChild, waitForHttp } from "@gw/testing/processes";

/** A gateway app running as its own OS process, as in production. */
export type AppProcess = ChildApp;

export { waitForHttp };

/** One key pair per app for this test file's processes. */
const SERVICE_KEYS = generateServiceKeys();

/**
 * Starts one of the repository's built scripts (e.g. `apps/edge/dist/main.js`) with this Node. An
 * app's main.js gets its service key as the deployment files give it (the split plane requires it).
 */
export function startProcess(name: string, script: string, env: Record<string, string>): AppProcess {
  const app = /^apps\/([a-z]+)\/dist\/main\.js$/.exec(script)?.[1];
  const service = app !== undefined && isServiceName(app) ? serviceAuthEnvFor(app, SERVICE_KEYS) : {};
  return startChild(name, process.execPath, [join(repoRoot(), script)], { ...service, ...env });
}

/** Runs a CLI to completion and returns its stdout; rejects with stderr on a non-zero exit. */
export function runCli(script: string, args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(repoRoot(), script), ...args], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once("exit", (code) => {
      if (code === 0) resolve(stdout);
      else reject(new Error(`${script} ${args.join(" ")} exited with ${code}: ${stderr}`));
    });
  });
}

/** Polls until `probe` returns a value (not undefined) or the timeout passes. */
export async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export interface TopicEnv {
  TOPIC_USAGE: string;
  TOPIC_KEY_CHANGES: string;
  TOPIC_PAYMENTS: string;
}

/** Topics of this test file's own, created up front, so parallel files and runs never share events. */
export async function freshTopics(prefix: string, brokers: string[]): Promise<TopicEnv> {
  const topics: TopicEnv = {
    TOPIC_USAGE: uniqueName(`${prefix}.usage`),
    TOPIC_KEY_CHANGES: uniqueName(`${prefix}.key-changes`),
    TOPIC_PAYMENTS: uniqueName(`${prefix}.payments`),
  };
  await ensureTopics(
    brokers,
    Object.values(topics).map((name) => ({ name, partitions: 3 })),
  );
  return topics;
}

/** The ports of one split plane on loopback: each control-plane app's HTTP and gRPC, and the edge's. */
export interface SplitPlanePorts {
  keysHttp: number;
  keysGrpc: number;
  billingHttp: number;
  billingGrpc: number;
  generationsHttp: number;
  generationsGrpc: number;
  edge: number;
}

/**
 * Free ports for a split plane and the environment every one of its apps shares: its topics, database,
 * Redis prefix and broker, where the others' gRPC services are, a wallet secret and the edge's public URL.
 */
export async function splitPlaneEnv(options: {
  topics: TopicEnv;
  databaseUrl: string;
  redisPrefix: string;
}): Promise<{ port: SplitPlanePorts; edgeUrl: string; env: Record<string, string> }> {
  const port: SplitPlanePorts = {
    keysHttp: await freePort(),
    keysGrpc: await freePort(),
    billingHttp: await freePort(),
    billingGrpc: await freePort(),
    generationsHttp: await freePort(),
    generationsGrpc: await freePort(),
    edge: await freePort(),
  };
  const edgeUrl = `http://127.0.0.1:${port.edge}`;
  const env: Record<string, string> = {
    ...options.topics,
    HOST: "127.0.0.1",
    LOG_LEVEL: "warn",
    DATABASE_URL: options.databaseUrl,
    REDIS_URL: serviceUrl("redis"),
    REDIS_KEY_PREFIX: uniqueName(options.redisPrefix),
    KAFKA_BROKERS: kafkaBrokers().join(","),
    KEYS_GRPC_ADDRESS: `127.0.0.1:${port.keysGrpc}`,
    BILLING_GRPC_ADDRESS: `127.0.0.1:${port.billingGrpc}`,
    GENERATIONS_GRPC_ADDRESS: `127.0.0.1:${port.generationsGrpc}`,
    WALLET_JWT_SECRET: randomBytes(32).toString("hex"),
    PUBLIC_BASE_URL: edgeUrl,
  };
  return { port, edgeUrl, env };
}
