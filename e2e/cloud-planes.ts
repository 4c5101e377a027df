import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "@gw/db";
import { createTestDatabase, kafkaBrokers } from "@gw/testing";
import {
  type AppProcess,
  eventually,
  freshTopics,
  runCli,
  splitPlaneEnv,
  startProcess,
  waitForHttp,
} from "./processes.js";

/** A gateway running as processes: where to call it, an API key of a funded account, how to stop it. */
export interface RunningGateway {
  readonly url: string;
  readonly apiKey: string;
  /** A new operator token, made with the operator CLI against the gateway's database. */
  operatorToken(name: string): Promise<string>;
  stop(): Promise<void>;
}

/** The standalone binary on its embedded stores (the default deployment); `providers` is the edge's env. */
export async function startEmbedded(providers: Record<string, string>): Promise<RunningGateway> {
  const dataDir = mkdtempSync(join(tmpdir(), "gw-cloud-"));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const gateway = startProcess("standalone", "apps/standalone/dist/main.js", {
    ...providers,
    PORT: String(port),
    GW_DATA_DIR: dataDir,
    DATABASE_URL: "",
    REDIS_URL: "",
    KAFKA_BROKERS: "",
  });
  await waitForHttp(`${url}/readyz`, gateway, 120_000);
  const apiKey = await eventually(async () => {
    try {
      return (JSON.parse(readFileSync(join(dataDir, "dev-credentials.json"), "utf8")) as { api_key: string })
        .api_key;
    } catch {
      return undefined;
    }
  }, 30_000);
  return {
    url,
    apiKey,
    operatorToken: (name) => operatorToken(name, { GW_DATA_DIR: dataDir, DATABASE_URL: "" }),
    async stop() {
      await gateway.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Keys, billing, generations and edge as four processes on the real PostgreSQL, Redis and Kafka (as
 * e2e/split-plane.e2e.test.ts starts them), the providers' variables given to the edge alone and the
 * operator's catalogue declarations (`catalogue`) to the keys app too.
 */
export async function startSplit(
  providers: Record<string, string>,
  catalogue: Readonly<Record<string, string>> = {},
): Promise<RunningGateway> {
  const database = await createTestDatabase();
  const topics = await freshTopics("cloud", kafkaBrokers());
  const {
    port,
    edgeUrl: url,
    env,
  } = await splitPlaneEnv({
    topics,
    databaseUrl: database.url,
    redisPrefix: "cloud",
  });
  const service = (name: string, http: number, grpc: number) =>
    startProcess(name, `apps/${name}/dist/main.js`, {
      ...env,
      ...(name === "keys" ? catalogue : {}),
      HTTP_PORT: String(http),
      GRPC_PORT: String(grpc),
    });
  const apps: AppProcess[] = [
    service("keys", port.keysHttp, port.keysGrpc),
    service("billing", port.billingHttp, port.billingGrpc),
    service("generations", port.generationsHttp, port.generationsGrpc),
  ];
  const stop = async () => {
    await Promise.all(apps.map((app) => app.stop()));
    await database.drop();
  };
  try {
    await Promise.all(
      [port.keysHttp, port.billingHttp, port.generationsHttp].map((http, index) =>
        waitForHttp(`http://127.0.0.1:${http}/healthz`, apps[index] as AppProcess),
      ),
    );
    const edge = startProcess("edge", "apps/edge/dist/main.js", {
      ...env,
      ...providers,
      HTTP_PORT: String(port.edge),
      KEYS_HTTP_URL: `http://127.0.0.1:${port.keysHttp}`,
      BILLING_HTTP_URL: `http://127.0.0.1:${port.billingHttp}`,
      GENERATIONS_HTTP_URL: `http://127.0.0.1:${port.generationsHttp}`,
    });
    apps.push(edge);
    await waitForHttp(`${url}/readyz`, edge, 120_000);
    return {
      url,
      apiKey: await fundedKey(url, database.url),
      operatorToken: (name) => operatorToken(name, { DATABASE_URL: database.url }),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function operatorToken(name: string, env: Record<string, string>): Promise<string> {
  const created = await runCli(
    "apps/standalone/dist/cli/main.js",
    ["operator-token", "create", "--name", name, "--json"],
    env,
  );
  return (JSON.parse(created) as { token: string }).token;
}

/** An account made with the operator CLI, with credits, and an API key its management key creates. */
async function fundedKey(url: string, databaseUrl: string): Promise<string> {
  const created = JSON.parse(
    await runCli(
      "apps/standalone/dist/cli/main.js",
      ["accounts", "create", "--name", "cloud", "--credits", "50", "--json"],
      { DATABASE_URL: databaseUrl },
    ),
  ) as { management_key: string };
  const response = await fetch(`${url}/api/v1/keys`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${created.management_key}` },
    body: JSON.stringify({ name: "cloud e2e" }),
  });
  if (response.status !== 201)
    throw new Error(`creating the API key: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { key: string }).key;
}
