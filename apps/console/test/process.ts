import { type ChildProcess, spawn } from "node:child_process";

/** A program run as its own OS process (the gateway, the `gw` CLI), with the tail of what it printed. */
export interface ChildApp {
  name: string;
  child: ChildProcess;
  output(): string;
  /** SIGTERM, then SIGKILL after 10 s; resolves once it has exited. */
  stop(): Promise<void>;
}

export function startChild(
  name: string,
  script: string,
  args: string[],
  env: Record<string, string>,
): ChildApp {
  const child = spawn(process.execPath, [script, ...args], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const append = (part: Buffer): void => {
    output = (output + part.toString()).slice(-40_000);
  };
  child.stdout?.on("data", append);
  child.stderr?.on("data", append);
  return { name, child, output: () => output, stop: () => stopChild(child) };
}

export function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const kill = setTimeout(() => child.kill("SIGKILL"), 10_000);
  child.kill("SIGTERM");
  await exited(child);
  clearTimeout(kill);
}

/** Polls until `probe` gives a value; fails with the app's output when it exits or the time is up. */
async function until<T>(
  app: ChildApp,
  what: string,
  timeoutMs: number,
  probe: () => Promise<T | undefined>,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (app.child.exitCode !== null)
      throw new Error(`${app.name} exited with ${app.child.exitCode}:\n${app.output()}`);
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${app.name}: ${what} not within ${timeoutMs} ms:\n${app.output()}`);
}

export function waitForHttp(url: string, app: ChildApp, timeoutMs: number): Promise<true> {
  return until(app, `${url} answering 2xx`, timeoutMs, async () => {
    try {
      return (await fetch(url)).ok ? true : undefined;
    } catch {
      return undefined; // not listening yet
    }
  });
}

/** The first capture group of `pattern` once the app printed it. */
export function waitForOutput(app: ChildApp, pattern: RegExp, timeoutMs: number): Promise<string> {
  return until(app, `output matching ${pattern}`, timeoutMs, async () => {
    const match = pattern.exec(app.output());
    return match ? (match[1] ?? match[0]) : undefined;
  });
}
