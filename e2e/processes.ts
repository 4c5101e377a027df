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

/** The private service keys this file's processes were given (secrets the log scans look for). */
export function serviceKeySecrets(): Record<string, string> {
  return Object.fromEntries(Object.entries(SERVICE_KEYS).map(([name, pair]) => [name, pair.privateKey]));
}

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

export type SplitPlaneApp = "keys" | "billing" | "generations" | "edge";

/** A split plane running as four OS processes. */
export interface SplitPlane {
  apps: Record<SplitPlaneApp, AppProcess>;
  port: SplitPlanePorts;
  edgeUrl: string;
  /** Each app's own HTTP base URL (its probes, and the control-plane routes it serves). */
  httpUrl(app: SplitPlaneApp): string;
  stop(): Promise<void>;
}

/**
 * Starts keys, billing and generations (healthy), then the edge (ready), with `splitPlaneEnv`'s
 * environment plus `env` (every app) and `edgeEnv` (the edge: its providers, spool, …).
 */
export async function startSplitPlane(options: {
  topics: TopicEnv;
  databaseUrl: string;
  redisPrefix: string;
  env?: Record<string, string>;
  edgeEnv?: Record<string, string>;
  /** Every chunk each app prints, from its first (ChildApp.output keeps only a tail). */
  onOutput?: (app: SplitPlaneApp, chunk: string) => void;
}): Promise<SplitPlane> {
  const watch = (name: SplitPlaneApp, app: AppProcess): AppProcess => {
    const forward = (chunk: Buffer) => options.onOutput?.(name, chunk.toString());
    app.child.stdout?.on("data", forward);
    app.child.stderr?.on("data", forward);
    return app;
  };
  const plane = await splitPlaneEnv(options);
  const { port } = plane;
  const env = { ...plane.env, ...options.env };
  const control = (name: "keys" | "billing" | "generations", http: number, grpc: number) =>
    watch(
      name,
      startProcess(name, `apps/${name}/dist/main.js`, {
        ...env,
        HTTP_PORT: String(http),
        GRPC_PORT: String(grpc),
      }),
    );
  const ports: Record<"keys" | "billing" | "generations", [number, number]> = {
    keys: [port.keysHttp, port.keysGrpc],
    billing: [port.billingHttp, port.billingGrpc],
    generations: [port.generationsHttp, port.generationsGrpc],
  };
  const httpPorts: Record<SplitPlaneApp, number> = {
    keys: port.keysHttp,
    billing: port.billingHttp,
    generations: port.generationsHttp,
    edge: port.edge,
  };
  const httpUrl = (app: SplitPlaneApp) => `http://127.0.0.1:${httpPorts[app]}`;
  const started: Partial<Record<SplitPlaneApp, AppProcess>> = {
    keys: control("keys", port.keysHttp, port.keysGrpc),
    billing: control("billing", port.billingHttp, port.billingGrpc),
    generations: control("generations", port.generationsHttp, port.generationsGrpc),
  };
  const stop = () => Promise.all(Object.values(started).map((app) => app.stop())).then(() => {});
  try {
    await Promise.all(
      (["keys", "billing", "generations"] as const).map(async (name) => {
        for (let attempt = 1; ; attempt++) {
          const app = started[name] as AppProcess;
          try {
            return await waitForHttp(`${httpUrl(name)}/healthz`, app, 120_000);
          } catch (error) {
            // A broker seconds old may answer a first consumer group "does not host this
            // topic-partition" and the app exits on it (as split-crash-reconcile retries too): start-up
            // on a fresh broker, not what the suites test; two more tries, said aloud.
            if (attempt >= 3 || app.child.exitCode === null) throw error;
            console.warn(`${name} exited during start (attempt ${attempt}); starting it again`);
            await new Promise((resolve) => setTimeout(resolve, 2_000));
            started[name] = control(name, ...ports[name]);
          }
        }
      }),
    );
    started.edge = watch(
      "edge",
      startProcess("edge", "apps/edge/dist/main.js", {
        ...env,
        HTTP_PORT: String(port.edge),
        KEYS_HTTP_URL: httpUrl("keys"),
        BILLING_HTTP_URL: httpUrl("billing"),
        GENERATIONS_HTTP_URL: httpUrl("generations"),
        ...options.edgeEnv,
      }),
    );
    await waitForHttp(`${plane.edgeUrl}/readyz`, started.edge, 120_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { apps: started as Record<SplitPlaneApp, AppProcess>, port, edgeUrl: plane.edgeUrl, httpUrl, stop };
}
