import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type ChildApp, exited, startChild, waitForHttp, waitForOutput } from "./process.js";

/** The repository's root, from apps/console/test/. */
export const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const STANDALONE = join(REPO_ROOT, "apps/standalone/dist/main.js");
const CLI = join(REPO_ROOT, "apps/standalone/dist/cli/main.js");
const CONSOLE_INDEX = join(REPO_ROOT, "apps/console/dist/index.html");

/** The embedded default (`pnpm start`) as its own process, on a free port and a data dir of its own. */
export interface Gateway {
  url: string;
  /** The console's URL as the start-up banner prints it. */
  consoleUrl: string;
  accountId: string;
  managementKey: string;
  apiKey: string;
  dataDir: string;
  process: ChildApp;
  /** Runs the operator CLI (`gw …`) against this gateway's embedded database; returns its stdout. */
  cli(args: string[]): Promise<string>;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** The embedded default must not need any service: the ones this machine happens to have are hidden. */
function embeddedEnv(port: number, dataDir: string): Record<string, string> {
  return {
    PORT: String(port),
    HOST: "127.0.0.1",
    GW_DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
    DATABASE_URL: "",
    REDIS_URL: "",
    KAFKA_BROKERS: "",
    OPENAI_API_KEY: "",
    METRICS_PORT: "",
  };
}

export async function startGateway(): Promise<Gateway> {
  for (const [file, build] of [
    [STANDALONE, "pnpm --filter @gw/standalone... build"],
    [CONSOLE_INDEX, "pnpm --filter @gw/console build"],
  ] as const)
    if (!existsSync(file))
      throw new Error(`${file} is missing: run \`${build}\` (pnpm test builds it first)`);
  const dataDir = mkdtempSync(join(tmpdir(), "gw-console-e2e-"));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = embeddedEnv(port, dataDir);
  const child = startChild("standalone", STANDALONE, [], env);
  try {
    await waitForHttp(`${url}/readyz`, child, 150_000);
    const consoleUrl = await waitForOutput(child, /web console:\s+(\S+)/, 30_000);
    const printed = (label: string) => waitForOutput(child, new RegExp(`${label}:\\s+(\\S+)`), 10_000);
    return {
      url,
      consoleUrl,
      accountId: await printed("account"),
      managementKey: await printed("management key"),
      apiKey: await printed("API key"),
      dataDir,
      process: child,
      cli: (args) => runCli(args, env),
      stop: async () => {
        await child.stop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await child.stop();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

async function runCli(args: string[], env: Record<string, string>): Promise<string> {
  const cli = startChild("gw", CLI, args, env);
  const code = await exited(cli.child);
  if (code !== 0) throw new Error(`gw ${args.join(" ")} exited with ${code}:\n${cli.output()}`);
  return cli.output();
}
