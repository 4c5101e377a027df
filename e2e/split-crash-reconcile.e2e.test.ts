import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connectDatabase, type Database, freePort } from "@gw/db";
import { type FakeServer, startFakeOpenAi } from "@gw/fake-providers";
import { createTestDatabase, describeWith, serviceUrl, type TestDatabase, uniqueName } from "@gw/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type PrivateBroker, startPrivateBroker } from "./crash/broker.js";
import { reconcile, reportedUsage, settle } from "./crash/reconcile.js";
import { drive, type Outcome, seededRandom, sendOne } from "./crash/traffic.js";
import { type AppProcess, freshTopics, runCli, startProcess, waitForHttp } from "./processes.js";

// The split plane (keys, billing, generations, edge as OS processes on PostgreSQL, Redis and Kafka)
// under traffic while, one per round, the edge, billing (usage consumer), generations (its consumer)
// or the Kafka broker is killed with SIGKILL at a seeded random point and restarted; then reconciled
// exactly as the embedded default's suite does. The broker is the suite's own (infra/kafka/kafka.sh
// in a private folder, on its own ports), never the shared one. CRASH_SEED=<n> replays a run.

type Target = "edge" | "billing" | "generations" | "broker";

const SEED = Number(process.env.CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));
const REQUESTS_PER_ROUND = Number(process.env.CRASH_REQUESTS ?? 30);
const TARGETS: readonly Target[] = ["edge", "billing", "generations", "broker"];
const CONCURRENCY = 4;
const KEYS = 3;

describeWith(
  ["postgres", "redis", "kafka"],
  "split plane: edge, consumers and broker killed under traffic",
  () => {
    let database: TestDatabase;
    let broker: PrivateBroker;
    let demo: FakeServer;
    let ledger: Database<unknown>;
    let env: Record<string, string>;
    const spoolDir = mkdtempSync(join(tmpdir(), "gw-crash-spool-"));
    const ports: Record<"keys" | "billing" | "generations" | "edge", { http: number; grpc: number }> = {
      keys: { http: 0, grpc: 0 },
      billing: { http: 0, grpc: 0 },
      generations: { http: 0, grpc: 0 },
      edge: { http: 0, grpc: 0 },
    };
    const running = new Map<string, AppProcess>();
    const edgeUrl = () => `http://127.0.0.1:${ports.edge.http}`;

    async function startApp(
      name: "keys" | "billing" | "generations" | "edge",
      round: number,
    ): Promise<AppProcess> {
      const own = ports[name];
      const extra: Record<string, string> =
        name === "edge"
          ? {
              HTTP_PORT: String(own.http),
              KEYS_HTTP_URL: `http://127.0.0.1:${ports.keys.http}`,
              BILLING_HTTP_URL: `http://127.0.0.1:${ports.billing.http}`,
              GENERATIONS_HTTP_URL: `http://127.0.0.1:${ports.generations.http}`,
              DEMO_PROVIDER_URL: demo.baseUrl,
              EVENT_SPOOL_DIR: spoolDir,
              // A replica's identity survives its restart, so the restarted edge replays its journal.
              EDGE_INSTANCE_ID: "crash-edge",
            }
          : { HTTP_PORT: String(own.http), GRPC_PORT: String(own.grpc) };
      const url = `http://127.0.0.1:${own.http}/${name === "edge" ? "readyz" : "healthz"}`;
      for (let attempt = 1; ; attempt++) {
        const app = startProcess(`${name}-${round}`, `apps/${name}/dist/main.js`, { ...env, ...extra });
        running.set(name, app);
        try {
          await waitForHttp(url, app, 90_000);
          return app;
        } catch (error) {
          // A broker seconds old may still answer a first consumer group "does not host this
          // topic-partition", and the app exits on it; that is start-up on a fresh broker, not the
          // kills under test, so it gets two more tries (and says so).
          if (attempt >= 3 || app.child.exitCode === null) throw error;
          console.warn(`split-crash: ${name} exited during start (attempt ${attempt}); starting it again`);
          await new Promise((resolve) => setTimeout(resolve, 2_000));
        }
      }
    }

    beforeAll(async () => {
      database = await createTestDatabase({ prefix: "crash" });
      broker = await startPrivateBroker();
      demo = await startFakeOpenAi({ demo: true, host: "127.0.0.1", port: 0 });
      for (const app of Object.values(ports)) {
        app.http = (await freePort()) ?? 0;
        app.grpc = (await freePort()) ?? 0;
      }
      const topics = await withRetries(() => freshTopics("crash", [broker.brokers]));
      env = {
        ...topics,
        HOST: "127.0.0.1",
        LOG_LEVEL: "warn",
        DATABASE_URL: database.url,
        REDIS_URL: serviceUrl("redis"),
        REDIS_KEY_PREFIX: uniqueName("crash"),
        KAFKA_BROKERS: broker.brokers,
        KEYS_GRPC_ADDRESS: `127.0.0.1:${ports.keys.grpc}`,
        BILLING_GRPC_ADDRESS: `127.0.0.1:${ports.billing.grpc}`,
        GENERATIONS_GRPC_ADDRESS: `127.0.0.1:${ports.generations.grpc}`,
        WALLET_JWT_SECRET: randomBytes(32).toString("hex"),
        PUBLIC_BASE_URL: `http://127.0.0.1:${ports.edge.http}`,
      };
      await Promise.all([startApp("keys", 0), startApp("billing", 0), startApp("generations", 0)]);
      await startApp("edge", 0);
      ledger = connectDatabase<unknown>({ url: database.url, schema: "public", maxConnections: 2 });
    }, 240_000);

    afterAll(async () => {
      await Promise.all([...running.values()].map((app) => app.stop()));
      await demo?.close();
      await broker?.stop();
      await ledger?.close();
      await database?.drop();
      rmSync(spoolDir, { recursive: true, force: true });
    });

    async function createKeys(): Promise<string[]> {
      const created = JSON.parse(
        await runCli(
          "apps/standalone/dist/cli/main.js",
          ["accounts", "create", "--name", "crash", "--credits", "50", "--json"],
          { DATABASE_URL: database.url },
        ),
      ) as { management_key: string };
      const secrets: string[] = [];
      for (let index = 0; index < KEYS; index++) {
        const response = await fetch(`${edgeUrl()}/api/v1/keys`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${created.management_key}` },
          body: JSON.stringify({ name: `crash-${index}` }),
        });
        expect(response.status).toBe(201);
        secrets.push(((await response.json()) as { key: string }).key);
      }
      return secrets;
    }

    /** Kills the round's target; resolves once it runs again. */
    function killAndRestart(target: Target, round: number): { kill: () => void; restarted: Promise<void> } {
      let killed: () => void = () => {};
      const wasKilled = new Promise<void>((resolve) => {
        killed = resolve;
      });
      const restarted = wasKilled.then(async () => {
        if (target === "broker") {
          await new Promise((resolve) => setTimeout(resolve, 1_500));
          await broker.restart();
          return;
        }
        const app = running.get(target);
        await new Promise<void>((resolve) => {
          if (!app || app.child.exitCode !== null || app.child.signalCode !== null) resolve();
          else app.child.once("exit", () => resolve());
        });
        // A consumer stays away a moment under traffic; the edge comes back at once (traffic waits for it).
        if (target !== "edge") await new Promise((resolve) => setTimeout(resolve, 1_000));
        await startApp(target, round);
      });
      return {
        kill: () => {
          if (target === "broker") broker.kill();
          else running.get(target)?.child.kill("SIGKILL");
          killed();
        },
        restarted,
      };
    }

    /** Sends chat requests until one is answered; returns how long that took (ms). */
    async function untilServing(secret: string, round: number, outcomes: Outcome[]): Promise<number> {
      const began = Date.now();
      for (let probe = 0; ; probe++) {
        const outcome = await sendOne(edgeUrl(), "chat", secret, round * 1_000 + 900 + probe);
        outcomes.push(outcome);
        if (outcome.state === "answered") return Date.now() - began;
        if (Date.now() - began > 30_000)
          throw new Error(`the edge did not serve again within 30 s: ${outcome.detail}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }

    it("loses and duplicates no usage across kills of each part", async () => {
      const began = Date.now();
      const random = seededRandom(SEED);
      const order = [...TARGETS].sort(() => random() - 0.5);
      console.log(
        `split-crash: seed=${SEED} targets=${order.join(",")} requests/round=${REQUESTS_PER_ROUND}`,
      );
      const secrets = await createKeys();
      const outcomes: Outcome[] = [];
      const refusedOutsideBilling: Outcome[] = [];
      const kills: string[] = [];
      for (const [index, target] of order.entries()) {
        const round = index + 1;
        // The edge is killed right after an answer (the moment its journal must already hold the
        // usage); the others after a request started, somewhere in the traffic.
        const on = target === "edge" ? "answer" : "start";
        const after = Math.max(1, Math.floor(REQUESTS_PER_ROUND * (0.2 + 0.6 * random())));
        const delayMs = Math.floor(random() * (on === "start" ? 25 : 3));
        const { kill, restarted } = killAndRestart(target, round);
        const roundOutcomes = await drive({
          baseUrl: edgeUrl(),
          secrets,
          random,
          requests: REQUESTS_PER_ROUND,
          concurrency: CONCURRENCY,
          offset: round * 1_000,
          kill: { on, after, delayMs, run: kill, stopsTraffic: target === "edge" },
        });
        await restarted;
        // The next round starts once the edge serves again (its channel to a restarted app reconnects
        // on its own); the probes are requests like any other and are reconciled with the rest.
        const recovery = await untilServing(secrets[0] as string, round, roundOutcomes);
        const answered = roundOutcomes.filter((outcome) => outcome.state === "answered").length;
        const refused = roundOutcomes.filter((outcome) => outcome.state === "refused");
        kills.push(
          `${target} after ${on === "start" ? "request" : "answer"} ${after} + ${delayMs} ms: ${answered}/${roundOutcomes.length} answered, refused ${refused.length}, serving again after ${recovery} ms${refused[0] ? ` (first: ${refused[0].status} ${refused[0].detail?.slice(0, 200)})` : ""}`,
        );
        // Admission asks billing: while billing is down requests may be refused; otherwise never.
        if (target !== "billing") refusedOutsideBilling.push(...refused);
        outcomes.push(...roundOutcomes);
      }
      await settle(ledger.pool, outcomes);
      const result = await reconcile(ledger.pool, outcomes, secrets, (secret) =>
        reportedUsage(edgeUrl(), secret),
      );
      const seconds = ((Date.now() - began) / 1000).toFixed(1);
      console.log(`split-crash: ${kills.join("; ")}`);
      console.log(
        `split-crash: seed=${SEED} rounds=${order.length} kills=${kills.length} requests=${result.requests} answered=${result.answered} cut=${result.cut} refused=${result.refused} generations=${result.generations} debits=${result.debits} lost=${result.lost.length} duplicates=${result.duplicates.length} half=${result.half.length} mispriced=${result.mispriced} time=${seconds}s`,
      );
      expect(refusedOutsideBilling.map((outcome) => `${outcome.status} ${outcome.detail}`)).toEqual([]);
      expect(result.lost).toEqual([]);
      expect(result.duplicates).toEqual([]);
      expect(result.half).toEqual([]);
      expect(result.mispriced).toBe(0);
      expect(result.strangers).toEqual([]);
      expect(result.generations).toBeLessThanOrEqual(result.requests);
      expect(result.generations).toBeGreaterThanOrEqual(result.answered);
      for (const key of result.keys) expect(key.usage).toBe(key.ledger);
      expect(result.answered).toBeGreaterThan(0);
    }, 420_000);
  },
);

/** A broker that has just started may still refuse metadata for a moment ("does not host this topic-partition"). */
async function withRetries<T>(work: () => Promise<T>, attempts = 20): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}
