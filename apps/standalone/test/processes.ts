import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { ensureTopics } from "@gw/kafka";
import { repoRoot, uniqueName } from "@gw/testing";

/** A gateway app running as its own OS process, as in production. */
export interface AppProcess {
  name: string;
  child: ChildProcess;
  /** Everything the process printed, for the failure message when something goes wrong. */
  output(): string;
  stop(): Promise<void>;
}

export function startProcess(name: string, script: string, env: Record<string, string>): AppProcess {
  const child = spawn(process.execPath, [join(repoRoot(), script)], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const append = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on("data", append);
  child.stderr?.on("data", append);
  return {
    name,
    child,
    output: () => output,
    stop: () => stopProcess(child),
  };
}

function stopProcess(child: ChildProcess): Promise<void> {
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

/** Polls `url` until it answers 2xx; fails with the process's output if it exits or times out. */
export async function waitForHttp(url: string, app: AppProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (app.child.exitCode !== null) {
      throw new Error(`${app.name} exited with ${app.child.exitCode}:\n${app.output()}`);
    }
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${app.name} did not answer ${url} within ${timeoutMs} ms:\n${app.output()}`);
}

/** Runs a CLI to completion and returns its stdout; rejects with stderr on a non-zero exit. */
export function runCli(script: string, args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(repoRoot(), script), ...args], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once("exit", (code) => {
      if (code === 0) resolve(stdout);
      else reject(new Error(`${script} ${args.join(" ")} exited with ${code}: ${stderr}`));
    });
  });
}

/** Polls until `probe` returns a value (not undefined) or the timeout passes. */
export async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export interface TopicEnv {
  TOPIC_USAGE: string;
  TOPIC_KEY_CHANGES: string;
  TOPIC_PAYMENTS: string;
}

/** Topics of this test file's own, created up front, so parallel files and runs never share events. */
export async function freshTopics(prefix: string, brokers: string[]): Promise<TopicEnv> {
  const topics: TopicEnv = {
    TOPIC_USAGE: uniqueName(`${prefix}.usage`),
    TOPIC_KEY_CHANGES: uniqueName(`${prefix}.key-changes`),
    TOPIC_PAYMENTS: uniqueName(`${prefix}.payments`),
  };
  await ensureTopics(
    brokers,
    Object.values(topics).map((name) => ({ name, partitions: 3 })),
  );
  return topics;
}
