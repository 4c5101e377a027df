import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "@gw/db";
import { startFakeOpenAi } from "@gw/fake-providers";
import { createTestDatabase, kafkaBrokers, serviceUrl, uniqueName } from "@gw/testing";
import { type AppProcess, eventually, freshTopics, runCli, startProcess, waitForHttp } from "./processes.js";

/** A running gateway as an SDK user meets it: one base URL, an API key and a management key. */
export interface SdkGateway {
  url: string;
  apiKey: string;
  managementKey: string;
  stop(): Promise<void>;
}

interface DevCredentials {
  api_key: string;
  management_key: string;
}

/** The embedded default as a newcomer runs it: no infrastructure, the demo provider, printed keys. */
export async function startEmbeddedGateway(prefix: string): Promise<SdkGateway> {
  const dataDir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = { PORT: String(port), GW_DATA_DIR: dataDir, LOG_LEVEL: "warn" };
  for (const name of ["DATABASE_URL", "REDIS_URL", "KAFKA_BROKERS", "OPENAI_API_KEY"]) env[name] = "";
  const gateway = startProcess("standalone", "apps/standalone/dist/main.js", env);
  const stop = async () => {
    await gateway.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHttp(`${url}/readyz`, gateway, 120_000);
    // The credentials file is written once the start-up has finished, after readiness.
    const credentials = await eventually(async () => {
      try {
        return JSON.parse(readFileSync(join(dataDir, "dev-credentials.json"), "utf8")) as DevCredentials;
      } catch {
        return undefined;
      }
    }, 30_000);
    return { url, apiKey: credentials.api_key, managementKey: credentials.management_key, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

type SplitApp = "keys" | "billing" | "generations";

/**
 * The split plane: keys, billing, generations and edge as OS processes on PostgreSQL, Redis and the
 * shared Kafka broker (this call's own topics), the demo provider's fake upstream, and an account made
 * with the operator CLI (its management key mints the API key).
 */
export async function startSplitGateway(prefix: string): Promise<SdkGateway> {
  const database = await createTestDatabase({ prefix });
  const demo = await startFakeOpenAi({ demo: true, host: "127.0.0.1", port: 0 });
  const apps: AppProcess[] = [];
  const stop = async () => {
    await Promise.all(apps.map((app) => app.stop()));
    await demo.close();
    await database.drop();
  };
  try {
    const brokers = kafkaBrokers();
    const port = async () => (await freePort()) ?? 0;
    const ports = {
      keys: { http: await port(), grpc: await port() },
      billing: { http: await port(), grpc: await port() },
      generations: { http: await port(), grpc: await port() },
      edge: await port(),
    };
    const env: Record<string, string> = {
      ...(await freshTopics(prefix, brokers)),
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      DATABASE_URL: database.url,
      REDIS_URL: serviceUrl("redis"),
      REDIS_KEY_PREFIX: uniqueName(prefix),
      KAFKA_BROKERS: brokers.join(","),
      KEYS_GRPC_ADDRESS: `127.0.0.1:${ports.keys.grpc}`,
      BILLING_GRPC_ADDRESS: `127.0.0.1:${ports.billing.grpc}`,
      GENERATIONS_GRPC_ADDRESS: `127.0.0.1:${ports.generations.grpc}`,
      WALLET_JWT_SECRET: randomBytes(32).toString("hex"),
      PUBLIC_BASE_URL: `http://127.0.0.1:${ports.edge}`,
    };
    const names: SplitApp[] = ["keys", "billing", "generations"];
    await Promise.all(
      names.map((name) => {
        const own = ports[name];
        const app = startProcess(name, `apps/${name}/dist/main.js`, {
          ...env,
          HTTP_PORT: String(own.http),
          GRPC_PORT: String(own.grpc),
        });
        apps.push(app);
        return waitForHttp(`http://127.0.0.1:${own.http}/healthz`, app);
      }),
    );
    const edge = startProcess("edge", "apps/edge/dist/main.js", {
      ...env,
      HTTP_PORT: String(ports.edge),
      KEYS_HTTP_URL: `http://127.0.0.1:${ports.keys.http}`,
      BILLING_HTTP_URL: `http://127.0.0.1:${ports.billing.http}`,
      GENERATIONS_HTTP_URL: `http://127.0.0.1:${ports.generations.http}`,
      DEMO_PROVIDER_URL: demo.baseUrl,
    });
    apps.push(edge);
    const url = `http://127.0.0.1:${ports.edge}`;
    await waitForHttp(`${url}/readyz`, edge);
    const created = JSON.parse(
      await runCli(
        "apps/standalone/dist/cli/main.js",
        ["accounts", "create", "--name", prefix, "--credits", "5", "--json"],
        { DATABASE_URL: database.url },
      ),
    ) as { management_key: string };
    const minted = await fetch(`${url}/api/v1/keys`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${created.management_key}` },
      body: JSON.stringify({ name: `${prefix} inference` }),
    });
    if (minted.status !== 201) throw new Error(`key creation answered ${minted.status}`);
    const apiKey = ((await minted.json()) as { key: string }).key;
    return { url, apiKey, managementKey: created.management_key, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
