import { spawn } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { repoRoot } from "@gw/testing";

/**
 * A Kafka broker of the suite's own (never the shared one other tests use), started with
 * infra/kafka/kafka.sh in a private state folder on its own ports. `kill` is SIGKILL on the JVM;
 * `restart` launches the same command line on the same data and ports (kafka.sh's start would wipe
 * the data, which a crashed broker keeps).
 */
export interface PrivateBroker {
  brokers: string;
  kill(): void;
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export async function startPrivateBroker(): Promise<PrivateBroker> {
  const state = mkdtempSync(join(tmpdir(), "gw-kafka-crash-"));
  const env = { GW_KAFKA_STATE_DIR: state };
  const started = await run("bash", [join(repoRoot(), "infra/kafka/kafka.sh"), "start"], env);
  const brokers = /KAFKA_BROKERS=(\S+)/.exec(started)?.[1];
  if (!brokers) throw new Error(`kafka.sh start printed no KAFKA_BROKERS:\n${started}`);
  const pidFile = join(state, "broker.pid");
  let pid = Number(readFileSync(pidFile, "utf8").trim());
  const commandLine = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
  return {
    brokers,
    kill: () => process.kill(pid, "SIGKILL"),
    restart: async () => {
      const log = openSync(join(state, "broker.log"), "a");
      const child = spawn(commandLine[0] as string, commandLine.slice(1), {
        detached: true,
        stdio: ["ignore", log, log],
      });
      closeSync(log);
      child.unref();
      pid = child.pid ?? 0;
      // kafka.sh stop finds the broker through its pid file.
      writeFileSync(pidFile, `${pid}\n`);
      await run(
        "node",
        [join(repoRoot(), "infra/kafka/admin.mjs"), "wait-ready", brokers, "90", String(pid)],
        {},
      );
    },
    stop: async () => {
      await run("bash", [join(repoRoot(), "infra/kafka/kafka.sh"), "stop"], env).catch(() => "");
      rmSync(state, { recursive: true, force: true });
    },
  };
}

function run(command: string, args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
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
      else reject(new Error(`${command} ${args.join(" ")} exited with ${code}: ${stderr}`));
    });
  });
}
