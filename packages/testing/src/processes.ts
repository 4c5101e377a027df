import { type ChildProcess, spawn } from "node:child_process";

/** A program the tests or the bench run as its own OS process, as in production. */
export interface ChildApp {
  name: string;
  child: ChildProcess;
  /** The last 20,000 characters it printed, for the failure message when something goes wrong. */
  output(): string;
  /** SIGTERM, then SIGKILL after 10 s; resolves once it has exited. */
  stop(): Promise<void>;
}

export function startChild(
  name: string,
  command: string,
  args: string[],
  env: Record<string, string>,
  cwd?: string,
): ChildApp {
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

/** Polls `url` until it answers 2xx; fails with the process's output when it exits or times out. */
export async function waitForHttp(url: string, app: ChildApp, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (app.child.exitCode !== null)
      throw new Error(`${app.name} exited with ${app.child.exitCode}:\n${app.output()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${app.name} did not answer ${url} within ${timeoutMs} ms:\n${app.output()}`);
}

/** Waits until the process printed a match of `pattern`; returns the first capture group. */
export async function waitForOutput(app: ChildApp, pattern: RegExp, timeoutMs = 30_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const match = pattern.exec(app.output());
    if (match) return match[1] ?? match[0];
    if (app.child.exitCode !== null)
      throw new Error(`${app.name} exited with ${app.child.exitCode}:\n${app.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${app.name} printed nothing matching ${pattern}:\n${app.output()}`);
}
