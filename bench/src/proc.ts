import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";

/** A target's OS process, as the bench started it. */
export interface BenchProcess {
  name: string;
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

export function startProcess(
  name: string,
  command: string,
  args: string[],
  env: Record<string, string>,
  cwd?: string,
): BenchProcess {
  const child = spawn(command, args, {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
    ...(cwd ? { cwd } : {}),
  });
  let output = "";
  const append = (part: Buffer): void => {
    output = (output + part.toString()).slice(-20_000);
  };
  child.stdout?.on("data", append);
  child.stderr?.on("data", append);
  return { name, child, output: () => output, stop: () => stopChild(child) };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/** Polls until `url` answers 2xx; fails with the process's output when it exits or times out. */
export async function waitForHttp(url: string, app: BenchProcess, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (app.child.exitCode !== null)
      throw new Error(`${app.name} exited (${app.child.exitCode}):\n${app.output()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${app.name} did not answer ${url} within ${timeoutMs} ms:\n${app.output()}`);
}

/** Waits until the process printed a line matching `pattern`; returns the first capture group. */
export async function waitForOutput(app: BenchProcess, pattern: RegExp, timeoutMs = 30_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const match = pattern.exec(app.output());
    if (match) return match[1] ?? match[0];
    if (app.child.exitCode !== null)
      throw new Error(`${app.name} exited (${app.child.exitCode}):\n${app.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${app.name} printed nothing matching ${pattern}:\n${app.output()}`);
}

/** Linux's clock ticks per second for /proc/<pid>/stat times (USER_HZ, 100 on every mainstream kernel). */
const CLOCK_TICKS = 100;

/** CPU seconds (user + system) the process has used so far. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // The command name is in parentheses and may hold spaces: count fields after its closing one.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** Resident set size in MB from /proc/<pid>/status. */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const line = /VmRSS:\s+(\d+) kB/.exec(status);
  return line ? Number(line[1]) / 1024 : 0;
}

export function loadAverage(): string {
  return readFileSync("/proc/loadavg", "utf8").trim();
}
