import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "@gw/db";
import { createLogger } from "@gw/logger";
import {
  type GrpcPorts,
  internalPortTaken,
  loadStandaloneConfig,
  type RunningStandalone,
  startStandalone,
} from "@gw/standalone";
import { createTestDatabase, describeWith, type TestDatabase } from "@gw/testing";
import { afterAll, beforeAll, expect, it } from "vitest";

// The embedded default chooses its inner apps' gRPC ports free and binds them seconds later; a port
// another process takes in between (it happened in CI: EADDRINUSE on billing's port) must not stop the
// gateway from starting.

async function port(): Promise<number> {
  const chosen = await freePort();
  if (chosen === undefined) throw new Error("no free port");
  return chosen;
}

describeWith(["postgres"], "the embedded default's inner gRPC ports", () => {
  let database: TestDatabase;
  let squatter: Server;
  let gateway: RunningStandalone | undefined;
  const chosen: GrpcPorts[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), "gw-ports-"));

  beforeAll(async () => {
    database = await createTestDatabase({ prefix: "ports" });
    squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(0, "127.0.0.1", resolve));
  });

  afterAll(async () => {
    await gateway?.stop();
    await new Promise((resolve) => squatter?.close(resolve));
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("starts again on new ports when one was taken before it was bound", async () => {
    const taken = (squatter.address() as { port: number }).port;
    const env = {
      PORT: String(await port()),
      HOST: "127.0.0.1",
      GW_DATA_DIR: dataDir,
      DATABASE_URL: database.url,
    };
    const choosePorts = async (): Promise<GrpcPorts> => {
      // The first choice has billing's port already bound by another process, as in CI.
      const ports = {
        keys: await port(),
        billing: chosen.length === 0 ? taken : await port(),
        generations: await port(),
      };
      chosen.push(ports);
      return ports;
    };
    gateway = await startStandalone(
      loadStandaloneConfig(env),
      env,
      createLogger("ports-test", "error"),
      choosePorts,
    );
    expect(chosen).toHaveLength(2);
    expect(chosen[1]?.billing).not.toBe(taken);
    const ready = await fetch(`${gateway.url}/readyz`);
    expect(ready.status).toBe(200);
  }, 120_000);

  it("tells an internal port taken from any other failure", () => {
    const ports = { keys: 40001, billing: 39337, generations: 40003 };
    const grpc = new Error(
      "No address added out of total 1 resolved errors: [listen EADDRINUSE: address already in use 127.0.0.1:39337]",
    );
    expect(internalPortTaken(grpc, ports)).toBe(true);
    expect(
      internalPortTaken(new Error("listen EADDRINUSE: address already in use 127.0.0.1:8080"), ports),
    ).toBe(false);
    expect(internalPortTaken(new Error("connect ECONNREFUSED 127.0.0.1:39337"), ports)).toBe(false);
  });
});
