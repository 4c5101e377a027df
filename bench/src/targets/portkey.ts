import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { freePort } from "@gw/db";
import { startProcess, waitForOutput } from "../proc.js";
import { UPSTREAM_KEY } from "./direct.js";
import type { Target } from "./target.js";

/**
 * Portkey's open-source gateway from its npm package (`build/start-server.js`, a Hono app on
 * @hono/node-server). `--port=` is its only port flag; `--headless` skips the log UI. Loopback custom
 * hosts are allowed by its default TRUSTED_CUSTOM_HOSTS (localhost, 127.0.0.1, ::1).
 */
export async function startPortkey(upstreamUrl: string): Promise<Target> {
  const require = createRequire(import.meta.url);
  const packageJson = require.resolve("@portkey-ai/gateway/package.json");
  const root = dirname(packageJson);
  const version = (JSON.parse(readFileSync(packageJson, "utf8")) as { version: string }).version;
  const port = await freePort();
  const app = startProcess(
    "portkey",
    process.execPath,
    [join(root, "build/start-server.js"), `--port=${port}`, "--headless"],
    { NODE_ENV: "production" },
    root,
  );
  await waitForOutput(app, /(Ready for connections)/, 60_000);
  return {
    name: "portkey",
    description: `@portkey-ai/gateway ${version} (node build/start-server.js --headless)`,
    url: `http://127.0.0.1:${port}/v1/chat/completions`,
    headers: {
      "content-type": "application/json",
      authorization: `Bearer ${UPSTREAM_KEY}`,
      "x-portkey-provider": "openai",
      "x-portkey-custom-host": `${upstreamUrl}/v1`,
    },
    model: "gpt-4o-mini",
    pids: () => (app.child.pid ? [app.child.pid] : []),
    processes: (): Record<string, number> => (app.child.pid ? { portkey: app.child.pid } : {}),
    // No Kafka, PostgreSQL or Redis: it authenticates, admits, meters and records nothing.
    services: [],
    stop: () => app.stop(),
  };
}
