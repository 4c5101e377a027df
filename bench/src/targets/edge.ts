import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "@gw/db";
import { ensureTopics } from "@gw/kafka";
import { generateServiceKeys, type ServiceName, serviceAuthEnvFor } from "@gw/rpc";
import type { Counted } from "../accounting/cpu.js";
import { databaseCounters } from "../accounting/database.js";
import { serviceProcesses } from "../accounting/services.js";
import { createDatabase, type Infrastructure } from "../infra.js";
import { type BenchProcess, startProcess, waitForHttp, waitForOutput } from "../proc.js";
import { UPSTREAM_KEY } from "./direct.js";
import type { Target } from "./target.js";

const CREDITS_USD = "1000000";

/**
 * Our edge on its full path, both ways it is deployed: the split plane on real services (when they are
 * reachable) and the embedded default (always: it is what a newcomer benchmarks first).
 */
export async function startEdges(
  root: string,
  infra: Infrastructure,
  upstreamUrl: string,
): Promise<Target[]> {
  const targets: Target[] = [];
  if (infra.kind === "split") targets.push(await startSplitPlane(root, infra, upstreamUrl));
  try {
    targets.push(await startEmbedded(root, infra, upstreamUrl));
  } catch (error) {
    await Promise.all(targets.map((target) => target.stop()));
    throw error;
  }
  return targets;
}

/**
 * The flood guard runs (its cost is measured) with thresholds it never reaches: the load generator is one
 * address and one key far beyond reasonable use, by design.
 */
const FLOOD_GUARD_OUT_OF_REACH = {
  FLOOD_ADDRESS_RPS: "1000000000",
  FLOOD_ADDRESS_BURST: "1000000000",
  FLOOD_KEY_RPS: "1000000000",
  FLOOD_KEY_BURST: "1000000000",
};

/** The services a plane uses, by the process listening on each; what cannot be found is reported. */
function servicesOf(addresses: Parameters<typeof serviceProcesses>[0]): {
  services: Counted[];
  note: string;
} {
  const { counted, missing } = serviceProcesses(addresses);
  const found = counted.map((entry) => `${entry.name} pid ${entry.pid}`).join(", ");
  return {
    services: counted,
    note: `CPU counted for ${found || "no service"}${missing.length > 0 ? `; NOT counted: ${missing.join(", ")}` : ""}`,
  };
}

const SERVICE_KEYS = generateServiceKeys();

/**
 * The edges' Node options: the bench's profiling hook, and an inspector on a free loopback port, through
 * which the open-streams scenario forces a GC and reads the live heap (idle unless a session attaches).
 */
const EDGE_NODE_OPTIONS = `--inspect=127.0.0.1:0 ${process.env.BENCH_EDGE_NODE_OPTIONS ?? ""}`.trim();

/**
 * Extra environment for the edges, `BENCH_EDGE_ENV="NAME=value NAME2=value"` (e.g. a producer linger the
 * edge reads, to choose it from the bench's broker and consumer CPU and freshness columns).
 */
export function extraEnv(text: string | undefined): Record<string, string> {
  return Object.fromEntries(
    (text ?? "")
      .split(/\s+/)
      .filter((pair) => pair.includes("="))
      .map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]),
  );
}

/** The inspector's WebSocket URL, as the process printed it (the port is chosen by the kernel). */
function inspectorOf(app: BenchProcess): () => Promise<string | undefined> {
  return () => waitForOutput(app, /Debugger listening on (ws:\/\/\S+)/, 1000).catch(() => undefined);
}

/** An app of the split plane, with its service key (the control plane answers only signed callers). */
const node = (
  root: string,
  name: ServiceName | "standalone",
  script: string,
  env: Record<string, string>,
): BenchProcess =>
  startProcess(name, process.execPath, [join(root, script)], {
    ...(name === "standalone" ? {} : serviceAuthEnvFor(name, SERVICE_KEYS)),
    ...env,
  });

async function startSplitPlane(
  root: string,
  infra: Extract<Infrastructure, { kind: "split" }>,
  upstreamUrl: string,
): Promise<Target> {
  const database = await createDatabase(infra.databaseServerUrl);
  const suffix = `bench-${process.pid}-${Date.now()}`;
  const topics = {
    TOPIC_USAGE: `${suffix}.usage`,
    TOPIC_KEY_CHANGES: `${suffix}.key-changes`,
    TOPIC_PAYMENTS: `${suffix}.payments`,
  };
  const brokers = infra.kafkaBrokers.split(",");
  await ensureTopics(
    brokers,
    Object.values(topics).map((name) => ({ name, partitions: 3 })),
  );
  const port = async (): Promise<string> => String(await freePort());
  const [keysHttp, keysGrpc, billingHttp, billingGrpc, generationsHttp, generationsGrpc, edgePort] =
    await Promise.all([port(), port(), port(), port(), port(), port(), port()]);
  const env: Record<string, string> = {
    ...topics,
    HOST: "127.0.0.1",
    LOG_LEVEL: "warn",
    DATABASE_URL: database.url,
    REDIS_URL: infra.redisUrl,
    REDIS_KEY_PREFIX: suffix,
    KAFKA_BROKERS: infra.kafkaBrokers,
    KEYS_GRPC_ADDRESS: `127.0.0.1:${keysGrpc}`,
    BILLING_GRPC_ADDRESS: `127.0.0.1:${billingGrpc}`,
    GENERATIONS_GRPC_ADDRESS: `127.0.0.1:${generationsGrpc}`,
    EVENT_SPOOL_DIR: join(tmpdir(), suffix),
  };
  // Profiling hook for keys, billing and generations (e.g. --cpu-prof); empty by default.
  const servicesEnv = { ...env, NODE_OPTIONS: process.env.BENCH_SERVICES_NODE_OPTIONS ?? "" };
  const services = [
    node(root, "keys", "apps/keys/dist/main.js", {
      ...servicesEnv,
      HTTP_PORT: keysHttp,
      GRPC_PORT: keysGrpc,
    }),
    node(root, "billing", "apps/billing/dist/main.js", {
      ...servicesEnv,
      HTTP_PORT: billingHttp,
      GRPC_PORT: billingGrpc,
    }),
    node(root, "generations", "apps/generations/dist/main.js", {
      ...servicesEnv,
      HTTP_PORT: generationsHttp,
      GRPC_PORT: generationsGrpc,
    }),
  ];
  const stopAll = async (apps: BenchProcess[]): Promise<void> => {
    await Promise.all(apps.map((app) => app.stop()));
    await database.drop().catch(() => {});
  };
  try {
    await Promise.all(
      services.map((app, index) =>
        waitForHttp(`http://127.0.0.1:${[keysHttp, billingHttp, generationsHttp][index]}/healthz`, app),
      ),
    );
    const edge = node(root, "edge", "apps/edge/dist/main.js", {
      ...env,
      HTTP_PORT: edgePort,
      NODE_OPTIONS: EDGE_NODE_OPTIONS,
      // BENCH_ADMISSION_LEASES=false measures one Admit call per request instead of budget leases.
      ADMISSION_LEASES: process.env.BENCH_ADMISSION_LEASES ?? "true",
      ...FLOOD_GUARD_OUT_OF_REACH,
      KEYS_HTTP_URL: `http://127.0.0.1:${keysHttp}`,
      BILLING_HTTP_URL: `http://127.0.0.1:${billingHttp}`,
      GENERATIONS_HTTP_URL: `http://127.0.0.1:${generationsHttp}`,
      OPENAI_API_KEY: UPSTREAM_KEY,
      OPENAI_BASE_URL: `${upstreamUrl}/v1`,
      ...extraEnv(process.env.BENCH_EDGE_ENV),
    });
    services.push(edge);
    const edgeUrl = `http://127.0.0.1:${edgePort}`;
    await waitForHttp(`${edgeUrl}/readyz`, edge);
    const apiKey = await createApiKey(root, edgeUrl, { DATABASE_URL: database.url });
    const { services: used, note } = servicesOf({
      kafkaBrokers: infra.kafkaBrokers,
      databaseUrl: infra.databaseServerUrl,
      redisUrl: infra.redisUrl,
    });
    const counters = databaseCounters(database.url);
    const target = edgeTarget(
      "edge (split)",
      `edge, split plane (keys, billing, generations, edge as processes; PostgreSQL, Redis, Kafka); ${note}`,
      used,
      edgeUrl,
      apiKey,
      edge,
      services,
      async () => {
        await counters.close().catch(() => {});
        await stopAll(services);
      },
    );
    return {
      ...target,
      database: counters,
      usage: { brokers, topic: topics.TOPIC_USAGE },
      inspectorUrl: inspectorOf(edge),
    };
  } catch (error) {
    await stopAll(services);
    throw error;
  }
}

async function startEmbedded(root: string, infra: Infrastructure, upstreamUrl: string): Promise<Target> {
  const dataDir = mkdtempSync(join(tmpdir(), "gw-bench-"));
  const port = String(await freePort());
  // BENCH_EMBEDDED_DATABASE=shared gives it a fresh database on the split plane's PostgreSQL (counted by
  // its port) instead of its own embedded server (a child process, counted in the standalone's tree).
  const shared =
    process.env.BENCH_EMBEDDED_DATABASE === "shared" && infra.kind === "split"
      ? await createDatabase(infra.databaseServerUrl)
      : undefined;
  const env: Record<string, string> = {
    PORT: port,
    GW_DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
    DATABASE_URL: shared?.url ?? "",
    ...FLOOD_GUARD_OUT_OF_REACH,
    NODE_OPTIONS: EDGE_NODE_OPTIONS,
    REDIS_URL: "",
    KAFKA_BROKERS: "",
    OPENAI_API_KEY: UPSTREAM_KEY,
    OPENAI_BASE_URL: `${upstreamUrl}/v1`,
    ...extraEnv(process.env.BENCH_EDGE_ENV),
  };
  const gateway = node(root, "standalone", "apps/standalone/dist/main.js", env);
  const stop = async (): Promise<void> => {
    await gateway.stop();
    await shared?.drop().catch(() => {});
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const url = `http://127.0.0.1:${port}`;
    await waitForHttp(`${url}/readyz`, gateway, 180_000);
    // The CLI finds the running standalone's embedded database under its data directory.
    const apiKey = await createApiKey(root, url, { GW_DATA_DIR: dataDir, DATABASE_URL: shared?.url ?? "" });
    const database = shared
      ? servicesOf({ databaseUrl: shared.url })
      : { services: [], note: "its embedded PostgreSQL runs as its child processes, counted in its tree" };
    const target = edgeTarget(
      "edge (embedded)",
      `edge, embedded default (apps/standalone, one process; PostgreSQL outbox as the bus, in-process hot store${infra.kind === "embedded" ? `; no split plane: ${infra.reason}` : ""}); ${database.note}`,
      database.services,
      url,
      apiKey,
      gateway,
      [gateway],
      stop,
    );
    return { ...target, inspectorUrl: inspectorOf(gateway) };
  } catch (error) {
    await stop();
    throw error;
  }
}

function edgeTarget(
  name: Extract<Target["name"], `edge${string}`>,
  description: string,
  services: Counted[],
  url: string,
  apiKey: string,
  measured: BenchProcess,
  all: BenchProcess[],
  stop: () => Promise<void>,
): Target {
  return {
    name,
    description,
    services,
    url: `${url}/v1/chat/completions`,
    headers: { "content-type": "application/json", authorization: `Bearer ${apiKey}` },
    model: "openai/gpt-4o-mini",
    pids: () => (measured.child.pid ? [measured.child.pid] : []),
    processes: () =>
      Object.fromEntries(all.flatMap((app) => (app.child.pid ? [[app.name, app.child.pid] as const] : []))),
    stop: async () => {
      const crashed = all.filter((app) => app.child.exitCode !== null && app.child.exitCode !== 0);
      for (const app of crashed) process.stderr.write(`${app.name} exited early:\n${app.output()}\n`);
      await stop();
    },
  };
}

/** The operator CLI makes the account; its management key makes an API key through the edge. */
async function createApiKey(root: string, edgeUrl: string, env: Record<string, string>): Promise<string> {
  const cli = startProcess(
    "cli",
    process.execPath,
    [
      join(root, "apps/standalone/dist/cli/main.js"),
      "accounts",
      "create",
      "--name",
      "bench",
      "--credits",
      CREDITS_USD,
      "--json",
    ],
    env,
  );
  const code = await new Promise<number | null>((resolve) => cli.child.once("exit", resolve));
  if (code !== 0) throw new Error(`accounts create exited with ${code}: ${cli.output()}`);
  const created = JSON.parse(cli.output().slice(cli.output().indexOf("{"))) as { management_key: string };
  const response = await fetch(`${edgeUrl}/api/v1/keys`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${created.management_key}` },
    body: JSON.stringify({ name: "bench" }),
  });
  if (response.status !== 201)
    throw new Error(`POST /api/v1/keys: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { key: string }).key;
}
