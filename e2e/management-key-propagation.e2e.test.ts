import { hashSecret } from "@gw/auth";
import { freePort } from "@gw/db";
import { createTestDatabase, describeWith, kafkaBrokers, type TestDatabase, uniqueName } from "@gw/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  type AppProcess,
  eventually,
  freshTopics,
  runCli,
  splitPlaneEnv,
  startProcess,
  waitForHttp,
} from "./processes.js";

// Management keys revoked or rotated (issue 33) on the split plane with two edges: a change made through
// edge A (or by the operator CLI) must make edge B refuse the old secret within one second on every
// surface a management key reaches — the edge's own `/v1/key`, and the routes it forwards to keys,
// billing and generations, each of which authenticates the key itself (billing and generations through
// a principal cache that the key-change event must clear).

const PROPAGATION_BOUND_MS = 1_000;
const CLI = "apps/standalone/dist/cli/main.js";
/** One route per place that authenticates a management key behind edge B. */
const SURFACES = ["/v1/key", "/api/v1/management-keys", "/api/v1/credits", "/api/v1/generations"];

describeWith(["postgres", "redis", "kafka"], "management key changes reach every edge", () => {
  const apps: AppProcess[] = [];
  let database: TestDatabase;
  let edgeA: string;
  let edgeB: string;
  let cliEnv: Record<string, string>;
  const measured: Record<string, number[]> = { revoke: [], rotate: [], cliRevoke: [], cliRotate: [] };
  const perSurface: Record<string, number | undefined>[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    const topics = await freshTopics("mgmt", kafkaBrokers());
    const plane = await splitPlaneEnv({ topics, databaseUrl: database.url, redisPrefix: "mgmt" });
    const { port, env } = plane;
    cliEnv = { DATABASE_URL: database.url, KAFKA_BROKERS: kafkaBrokers().join(","), ...topics };
    const service = (name: string, http: number, grpc: number) =>
      startProcess(name, `apps/${name}/dist/main.js`, {
        ...env,
        HTTP_PORT: String(http),
        GRPC_PORT: String(grpc),
      });
    const controlPlane = [
      service("keys", port.keysHttp, port.keysGrpc),
      service("billing", port.billingHttp, port.billingGrpc),
      service("generations", port.generationsHttp, port.generationsGrpc),
    ];
    apps.push(...controlPlane);
    await Promise.all(
      [port.keysHttp, port.billingHttp, port.generationsHttp].map((http, index) =>
        waitForHttp(`http://127.0.0.1:${http}/healthz`, controlPlane[index] as AppProcess),
      ),
    );
    const edgeEnv = {
      ...env,
      KEYS_HTTP_URL: `http://127.0.0.1:${port.keysHttp}`,
      BILLING_HTTP_URL: `http://127.0.0.1:${port.billingHttp}`,
      GENERATIONS_HTTP_URL: `http://127.0.0.1:${port.generationsHttp}`,
    };
    const portB = await freePortLike(port.edge);
    const a = startProcess("edge-a", "apps/edge/dist/main.js", {
      ...edgeEnv,
      HTTP_PORT: String(port.edge),
      EDGE_INSTANCE_ID: uniqueName("edge-a"),
    });
    const b = startProcess("edge-b", "apps/edge/dist/main.js", {
      ...edgeEnv,
      HTTP_PORT: String(portB),
      EDGE_INSTANCE_ID: uniqueName("edge-b"),
    });
    apps.push(a, b);
    edgeA = plane.edgeUrl;
    edgeB = `http://127.0.0.1:${portB}`;
    await Promise.all([
      waitForHttp(`${edgeA}/readyz`, a, 120_000),
      waitForHttp(`${edgeB}/readyz`, b, 120_000),
    ]);

    // Every consumer group (edge B's, billing's, generations') joins asynchronously after start: wait
    // until a revoked probe key is refused on every surface of edge B before measuring anything.
    const warmUp = await accountWithKeys("warm-up");
    await expectServedEverywhere(warmUp.second);
    expect(
      (await api(edgeA, "DELETE", `/api/v1/management-keys/${warmUp.secondHash}`, warmUp.first)).status,
    ).toBe(200);
    await eventually(async () => ((await refusedEverywhere(warmUp.second)) ? true : undefined), 60_000);
  }, 480_000);

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.stop()));
    await database?.drop();
    console.log(`management key change reaching the other edge (ms): ${JSON.stringify(measured)}`);
    console.log(`per surface (ms): ${JSON.stringify(perSurface)}`);
  });

  function api(base: string, method: string, path: string, key: string): Promise<Response> {
    return fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${key}` } });
  }

  async function statuses(base: string, key: string): Promise<number[]> {
    return Promise.all(
      SURFACES.map(async (path) => {
        const response = await api(base, "GET", path, key);
        await response.arrayBuffer();
        return response.status;
      }),
    );
  }

  async function refusedEverywhere(key: string): Promise<boolean> {
    return (await statuses(edgeB, key)).every((status) => status === 401);
  }

  /**
   * Both edges (and the apps behind them) serve the key, so each has it cached before the change. A
   * loaded machine can answer a 503 (a dependency's deadline) now and then: the precondition is retried.
   */
  async function expectServedEverywhere(key: string): Promise<void> {
    const served = async (edge: string) => (await statuses(edge, key)).every((status) => status === 200);
    await eventually(async () => ((await served(edgeA)) && (await served(edgeB)) ? true : undefined), 30_000);
  }

  /**
   * Polls each surface of edge B until it refuses `key`; the time since the change was acknowledged until
   * the last one did (each surface's own time goes to the log, to tell which app lags).
   */
  async function timeUntilRefused(key: string, since: number): Promise<number> {
    const times = await Promise.all(
      SURFACES.map(async (path) => {
        for (;;) {
          const response = await api(edgeB, "GET", path, key);
          await response.arrayBuffer();
          if (response.status === 401) return Math.round(performance.now() - since);
          if (performance.now() > since + 10_000) throw new Error(`edge B still serves the key on ${path}`);
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      }),
    );
    perSurface.push(Object.fromEntries(SURFACES.map((path, index) => [path, times[index]])));
    return Math.max(...times);
  }

  /** An account made by the operator CLI with two management keys. */
  async function accountWithKeys(name: string) {
    const created = JSON.parse(
      await runCli(CLI, ["accounts", "create", "--name", name, "--json"], cliEnv),
    ) as {
      account_id: string;
      management_key: string;
    };
    const second = JSON.parse(
      await runCli(
        CLI,
        [
          "keys",
          "create",
          "--account",
          created.account_id,
          "--name",
          `${name} second`,
          "--management",
          "--json",
        ],
        cliEnv,
      ),
    ) as { key: string; hash: string };
    return {
      accountId: created.account_id,
      first: created.management_key,
      firstHash: hashSecret(created.management_key),
      second: second.key,
      secondHash: second.hash,
    };
  }

  it("a management key revoked through edge A is refused on edge B within a second, on every surface", async () => {
    for (let round = 0; round < 2; round++) {
      const account = await accountWithKeys(`revoke ${round}`);
      await expectServedEverywhere(account.second);
      const response = await api(
        edgeA,
        "DELETE",
        `/api/v1/management-keys/${account.secondHash}`,
        account.first,
      );
      expect(await response.json()).toEqual({ deleted: true, data: { deleted: true } });
      const acknowledged = performance.now();
      // The serving edge dropped the key before answering.
      expect((await api(edgeA, "GET", "/v1/key", account.second)).status).toBe(401);
      const elapsed = await timeUntilRefused(account.second, acknowledged);
      measured.revoke?.push(Math.round(elapsed));
      expect(elapsed).toBeLessThan(PROPAGATION_BOUND_MS);
      // The key that revoked it is untouched, and the account's last one cannot go (through edge B).
      await expectServedEverywhere(account.first);
      const last = await api(edgeB, "DELETE", `/api/v1/management-keys/${account.firstHash}`, account.first);
      expect(last.status).toBe(400);
      expect(await last.json()).toMatchObject({ error: { metadata: { reason: "last_management_key" } } });
    }
  }, 120_000);

  it("rotation through edge A: the old secret refused on edge B within a second, the new one served", async () => {
    for (let round = 0; round < 2; round++) {
      const account = await accountWithKeys(`rotate ${round}`);
      await expectServedEverywhere(account.first);
      const response = await api(
        edgeA,
        "POST",
        `/api/v1/management-keys/${account.firstHash}/rotate`,
        account.first,
      );
      expect(response.status).toBe(201);
      const acknowledged = performance.now();
      const rotated = (await response.json()) as { key: string; data: { hash: string } };
      expect(rotated.data.hash).toBe(hashSecret(rotated.key));
      const elapsed = await timeUntilRefused(account.first, acknowledged);
      measured.rotate?.push(Math.round(elapsed));
      expect(elapsed).toBeLessThan(PROPAGATION_BOUND_MS);
      await expectServedEverywhere(rotated.key);
    }
  }, 120_000);

  it("the operator CLI's revoke and rotate reach edge B within a second; the last key needs --allow-last", async () => {
    const account = await accountWithKeys("cli");
    const listed = JSON.parse(
      await runCli(CLI, ["management-keys", "list", "--account", account.accountId, "--json"], cliEnv),
    ) as { data: { hash: string }[] };
    expect(listed.data.map((key) => key.hash).sort()).toEqual([account.firstHash, account.secondHash].sort());
    expect(JSON.stringify(listed)).not.toContain(account.first);

    await expectServedEverywhere(account.second);
    await runCli(
      CLI,
      ["management-keys", "revoke", "--account", account.accountId, "--hash", account.secondHash, "--json"],
      cliEnv,
    );
    const revoked = performance.now();
    const elapsed = await timeUntilRefused(account.second, revoked);
    measured.cliRevoke?.push(Math.round(elapsed));
    expect(elapsed).toBeLessThan(PROPAGATION_BOUND_MS);

    await expectServedEverywhere(account.first);
    const rotated = JSON.parse(
      await runCli(
        CLI,
        ["management-keys", "rotate", "--account", account.accountId, "--hash", account.firstHash, "--json"],
        cliEnv,
      ),
    ) as { key: string; hash: string; replaced: string };
    const rotatedAt = performance.now();
    expect(rotated).toMatchObject({ hash: hashSecret(rotated.key), replaced: account.firstHash });
    const rotation = await timeUntilRefused(account.first, rotatedAt);
    measured.cliRotate?.push(Math.round(rotation));
    expect(rotation).toBeLessThan(PROPAGATION_BOUND_MS);
    await expectServedEverywhere(rotated.key);

    // The new key is the account's last: refused without --allow-last (the CLI exits non-zero), gone with it.
    const revokeLast = ["management-keys", "revoke", "--account", account.accountId, "--hash", rotated.hash];
    await expect(runCli(CLI, revokeLast, cliEnv)).rejects.toThrow(/last usable management key/);
    await expectServedEverywhere(rotated.key);
    await runCli(CLI, [...revokeLast, "--allow-last"], cliEnv);
    const lastGone = performance.now();
    expect(await timeUntilRefused(rotated.key, lastGone)).toBeLessThan(PROPAGATION_BOUND_MS);
  }, 300_000);
});

/** A free port other than `taken` (splitPlaneEnv reserves one edge port; this plane has two edges). */
async function freePortLike(taken: number): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (port !== taken) return port;
  }
}
