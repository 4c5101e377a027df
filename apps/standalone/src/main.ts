import { createLogger, runMain, stopOnSignals } from "@gw/logger";
import { loadStandaloneConfig } from "./config.js";
import { type RunningStandalone, startStandalone } from "./standalone.js";

function banner(running: RunningStandalone): string {
  const { credentials } = running;
  return [
    "",
    `Model Gateway is running on ${running.url} (embedded default)`,
    `  database:      ${running.infrastructure.postgres}`,
    `  event bus:     ${running.infrastructure.bus}`,
    `  hot store:     ${running.infrastructure.hotStore}`,
    "  demo provider: built-in, model demo/echo (a deterministic stand-in, not a real model)",
    "",
    running.credentialsCreated
      ? "Created a dev account with 10 USD of credits:"
      : "Dev account (from .data/dev-credentials.json):",
    `  account:        ${credentials.account_id}`,
    `  management key: ${credentials.management_key}`,
    `  API key:        ${credentials.api_key}`,
    "",
    "Try it:",
    `  curl ${running.url}/v1/chat/completions \\`,
    `    -H "Authorization: Bearer ${credentials.api_key}" \\`,
    `    -H "Content-Type: application/json" \\`,
    `    -d '{"model":"demo/echo","messages":[{"role":"user","content":"Hello"}]}'`,
    "",
  ].join("\n");
}

async function main(): Promise<void> {
  const config = loadStandaloneConfig();
  const logger = createLogger("standalone", config.LOG_LEVEL);
  const running = await startStandalone(config, process.env, logger);
  console.log(banner(running));
  stopOnSignals(logger, async () => {
    await running.stop();
  });
}

runMain(main);
