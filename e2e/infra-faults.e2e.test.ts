import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connectDatabase, type Database } from "@gw/db";
import { type FakeServer, startFakeOpenAi } from "@gw/fake-providers";
import { describeWith, isCI } from "@gw/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type PrivateBroker, startPrivateBroker } from "./crash/broker.js";
import { reconcile, reportedUsage, settle } from "./crash/reconcile.js";
import { type PrivateService, startPrivatePostgres, startPrivateRedis } from "./crash/services.js";
import { drive, type Outcome, seededRandom, sendOne, steadyTraffic } from "./crash/traffic.js";
import {
  eventually,
  freshTopics,
  runCli,
  type SplitPlane,
  type SplitPlaneApp,
  startSplitPlane,
} from "./processes.js";

// Issue 33: the infrastructure fails, not the apps. The split plane (four processes) runs on a
// PostgreSQL, a Redis and a Kafka broker of this file's own (the machine's shared ones serve other
// tests and are never touched: e2e/crash/services.ts, e2e/crash/broker.ts). Under steady traffic
// Redis is killed with SIGKILL, stays away a few seconds and is started again, empty (it has no
// persistence). Then: no app restarted or exited, every app is ready again on its own, traffic after
// the recovery is all served, refusals during the outage are only the documented ones, and the
// reconciliation of the crash suites holds: every answered request has exactly one generation record
// and one ledger debit, priced alike, and each key's reported usage is its ledger.
// Then the same for PostgreSQL (SIGKILL on the postmaster and its backends, started again on its data:
// crash recovery) and for the Kafka broker (SIGKILL on the JVM, started again on its data and ports).
// FAULT_SEED=<n> replays a run's kinds and keys.

const SEED = Number(process.env.FAULT_SEED ?? Math.floor(Math.random() * 2 ** 31));
const DOWN_MS = 3_000;
const KEYS = 3;
const APPS: readonly SplitPlaneApp[] = ["keys", "billing", "generations", "edge"];

const redisServer = spawnSync("sh", ["-c", "command -v redis-server"], { stdio: "ignore" }).status === 0;

describeWith(["kafka"], "split plane: Redis, PostgreSQL and the broker killed under traffic", () => {
  let postgres: PrivateService;
  let redis: PrivateService;
  let broker: PrivateBroker;
  let demo: FakeServer;
  let plane: SplitPlane;
  let ledger: Database<unknown>;
  let secrets: string[];
  /** Per round, a key first used while its service is down (never authenticated before: no cache). */
  let freshKeys: Record<"redis" | "postgresql" | "broker", string>;
  /** The keys whose usage the reconciliation reads: a fresh key joins once its round has used it. */
  const usedKeys: string[] = [];
  const spoolDir = mkdtempSync(join(tmpdir(), "gw-infra-spool-"));
  const random = seededRandom(SEED);
  const outcomes: Outcome[] = [];
  let pids: Record<SplitPlaneApp, number | undefined>;
  let round = 0;

  beforeAll(async () => {
    if (!redisServer)
      throw new Error(
        `the infrastructure-fault suite starts its own redis-server and none is on PATH${isCI() ? " (CI: .ci/run's scripts/test.sh installs it)" : ": bash scripts/test.sh installs Debian's (as root), or apt-get install -y redis-server"}`,
      );
    [postgres, redis, broker] = await Promise.all([
      startPrivatePostgres(),
      startPrivateRedis(),
      startPrivateBroker(),
    ]);
    demo = await startFakeOpenAi({ demo: true, host: "127.0.0.1", port: 0 });
    const topics = await eventually(
      () => freshTopics("infra", [broker.brokers]).catch(() => undefined),
      90_000,
    );
    plane = await startSplitPlane({
      topics,
      databaseUrl: postgres.url,
      redisPrefix: "infra",
      env: { REDIS_URL: redis.url, KAFKA_BROKERS: broker.brokers },
      edgeEnv: { DEMO_PROVIDER_URL: demo.baseUrl, EVENT_SPOOL_DIR: spoolDir },
    });
    pids = Object.fromEntries(APPS.map((app) => [app, plane.apps[app].child.pid])) as typeof pids;
    ledger = connectDatabase<unknown>({ url: postgres.url, schema: "public", maxConnections: 2 });
    const keys = await createKeys(KEYS + 3);
    secrets = keys.slice(0, KEYS);
    usedKeys.push(...secrets);
    // Each traffic key is used once before any outage: its lease is what the edge has when one begins.
    for (const [index, secret] of secrets.entries()) await sendOne(plane.edgeUrl, "chat", secret, index);
    const [redisKey, postgresKey, brokerKey] = keys.slice(KEYS) as [string, string, string];
    freshKeys = { redis: redisKey, postgresql: postgresKey, broker: brokerKey };
    console.log(`infra-faults: seed=${SEED}`);
  }, 240_000);

  afterAll(async () => {
    await plane?.stop();
    await ledger?.close();
    await demo?.close();
    await Promise.all([postgres?.stop(), redis?.stop(), broker?.stop()]);
    rmSync(spoolDir, { recursive: true, force: true });
  });

  async function createKeys(count: number): Promise<string[]> {
    const created = JSON.parse(
      await runCli(
        "apps/standalone/dist/cli/main.js",
        ["accounts", "create", "--name", "infra", "--credits", "50", "--json"],
        { DATABASE_URL: postgres.url },
      ),
    ) as { management_key: string };
    const keys: string[] = [];
    for (let index = 0; index < count; index++) {
      const response = await fetch(`${plane.edgeUrl}/api/v1/keys`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${created.management_key}` },
        body: JSON.stringify({ name: `infra-${index}` }),
      });
      expect(response.status).toBe(201);
      keys.push(((await response.json()) as { key: string }).key);
    }
    return keys;
  }

  /**
   * Traffic until it has been answered a few times, then `service` killed, away DOWN_MS (during which
   * `fresh`, a key the edge has never seen, makes one request), started again; traffic goes on until
   * the edge has answered again, and 1 s more. Returns what the traffic saw and the fresh key's outcome.
   */
  async function outage(
    name: string,
    service: { kill(): void; restart(): Promise<void> },
    fresh: string,
  ): Promise<{ seen: Outcome[]; firstUse: Outcome }> {
    round++;
    const traffic = steadyTraffic({
      baseUrl: plane.edgeUrl,
      secrets,
      random,
      concurrency: 3,
      pauseMs: 100,
      offset: round * 100_000,
    });
    const answered = (from: number) =>
      traffic.outcomes.slice(from).filter((outcome) => outcome.state === "answered").length;
    await eventually(async () => (answered(0) >= 8 ? true : undefined), 60_000);
    service.kill();
    const killedAt = traffic.outcomes.length;
    const downSince = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const firstUse = await sendOne(plane.edgeUrl, "chat", fresh, round * 100_000 + 99_999);
    outcomes.push(firstUse);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, DOWN_MS - (Date.now() - downSince))));
    const during = traffic.outcomes.length - killedAt;
    const restartedAt = Date.now();
    await service.restart();
    const restartMs = Date.now() - restartedAt;
    const before = traffic.outcomes.length;
    await eventually(async () => (answered(before) > 0 ? true : undefined), 60_000).catch(async (error) => {
      await traffic.stop();
      const last = traffic.outcomes
        .slice(-5)
        .map((outcome) => `${outcome.state} ${outcome.status} ${outcome.detail?.slice(0, 300)}`);
      const logs = APPS.map((app) => `--- ${app}\n${plane.apps[app].output().slice(-1_500)}`);
      throw new Error(
        `the edge answered nothing after ${name} came back: ${last.join("; ")}\n${logs.join("\n")}`,
        { cause: error },
      );
    });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const seen = await traffic.stop();
    outcomes.push(...seen);
    const count = (state: Outcome["state"]) => seen.filter((outcome) => outcome.state === state).length;
    console.log(
      `infra-faults: ${name}: killed after ${killedAt} requests, ${during} ended while it was down, back in ${restartMs} ms; ${seen.length} requests: answered ${count("answered")}, refused ${count("refused")}, cut ${count("cut")}; a key first used during the outage: ${firstUse.status ?? firstUse.state}`,
    );
    return { seen, firstUse };
  }

  /** After the outage: no app was restarted, every one is ready, and plain traffic is all served. */
  async function recoveredOnTheirOwn(freshKey: string): Promise<void> {
    for (const app of APPS) {
      expect(plane.apps[app].child.exitCode, `${app} exited:\n${plane.apps[app].output()}`).toBeNull();
      expect(plane.apps[app].child.pid).toBe(pids[app]);
    }
    for (const app of APPS)
      await eventually(
        async () => ((await fetch(`${plane.httpUrl(app)}/readyz`)).status === 200 ? true : undefined),
        30_000,
      );
    round++;
    const after = await drive({
      baseUrl: plane.edgeUrl,
      secrets: [...secrets, freshKey],
      random,
      requests: 20,
      concurrency: 4,
      offset: round * 100_000,
    });
    outcomes.push(...after);
    expect(after.filter((outcome) => outcome.state !== "answered")).toEqual([]);
  }

  /** Every answered request so far is recorded and debited exactly once, and usage is the ledger. */
  async function nothingLostOrDoubled(): Promise<void> {
    await settle(ledger.pool, outcomes);
    const result = await reconcile(ledger.pool, outcomes, usedKeys, (secret) =>
      reportedUsage(plane.edgeUrl, secret),
    );
    console.log(
      `infra-faults: requests=${result.requests} answered=${result.answered} cut=${result.cut} refused=${result.refused} generations=${result.generations} debits=${result.debits} lost=${result.lost.length} duplicates=${result.duplicates.length} half=${result.half.length}`,
    );
    expect(result.lost).toEqual([]);
    expect(result.duplicates).toEqual([]);
    expect(result.half).toEqual([]);
    expect(result.mispriced).toBe(0);
    expect(result.strangers).toEqual([]);
    expect(result.generations).toBeGreaterThanOrEqual(result.answered);
    for (const key of result.keys) expect(key.usage).toBe(key.ledger);
  }

  /**
   * The refusals the outage may explain. A 502 `upstream_error` is the provider's (the demo fake in this
   * process, under a loaded machine): it is listed in the log, not held against the infrastructure.
   */
  const refusals = (seen: readonly Outcome[]) => {
    const refused = seen.filter((outcome) => outcome.state === "refused");
    const upstream = refused.filter(
      (outcome) => outcome.status === 502 && outcome.detail?.includes('"upstream_error"'),
    );
    if (upstream.length > 0) console.log(`infra-faults: ${upstream.length} upstream 502s (the provider's)`);
    return refused
      .filter((outcome) => !upstream.includes(outcome))
      .map((outcome) => `${outcome.status} ${outcome.detail?.slice(0, 300)}`);
  };

  it("Redis: admission fails closed (503) without a lease, the hot view is rebuilt from PostgreSQL", async () => {
    const { seen, firstUse } = await outage("redis", redis, freshKeys.redis);
    usedKeys.push(freshKeys.redis);
    // billing's default: Redis unreachable is UNAVAILABLE, the edge's 503 (apps/billing/README.md); a
    // key with a lease granted before keeps being served (apps/edge/README.md).
    for (const refusal of refusals(seen)) expect(refusal).toMatch(/^503 /);
    expect(firstUse.status).toBe(503);
    await recoveredOnTheirOwn(freshKeys.redis);
    await nothingLostOrDoubled();
  }, 240_000);

  it("PostgreSQL: a key the edge has not cached is a 503 while it is away; no usage event is dead-lettered, all are applied after", async () => {
    await ledger.close();
    const { seen, firstUse } = await outage("postgresql", postgres, freshKeys.postgresql);
    usedKeys.push(freshKeys.postgresql);
    ledger = connectDatabase<unknown>({ url: postgres.url, schema: "public", maxConnections: 2 });
    // The hot path does not read PostgreSQL: keys the edge has cached (the traffic's) are admitted from
    // billing's Redis view. A key it has never seen is looked up by the keys service in its database:
    // UNAVAILABLE, the edge's 503 (fails closed; packages/auth's resolver keeps no stale answer).
    for (const refusal of refusals(seen)) expect(refusal).toMatch(/^503 /);
    expect(firstUse.status).toBe(503);
    await recoveredOnTheirOwn(freshKeys.postgresql);
    // The consumers waited for PostgreSQL instead of dead-lettering the events they could not apply
    // (before, five quick attempts sent them to `<topic>.dlq.<group>`: answered requests without their
    // ledger entry and record).
    await nothingLostOrDoubled();
  }, 300_000);

  it("the broker: serving goes on (events are spooled), and every spooled event reaches billing and generations once", async () => {
    const { seen, firstUse } = await outage("broker", broker, freshKeys.broker);
    usedKeys.push(freshKeys.broker);
    // Nothing on the hot path waits on Kafka: the edge spools usage events to EVENT_SPOOL_DIR and
    // replays them when the broker is back; the keys service answers from PostgreSQL.
    for (const refusal of refusals(seen)) expect(refusal).toMatch(/^503 /);
    expect(
      firstUse.state,
      `a key first used while the broker was away: ${firstUse.status} ${firstUse.detail}`,
    ).toBe("answered");
    await recoveredOnTheirOwn(freshKeys.broker);
    await nothingLostOrDoubled();
  }, 300_000);
});
