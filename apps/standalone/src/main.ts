import { createLogger, runMain, stopOnSignals } from "@gw/logger";
import { startTracingFromEnv } from "@gw/telemetry";
import { loadStandaloneConfig } from "./config.js";
import { type RunningStandalone, startStandalone } from "./standalone.js";

/**
 * The start-up banner. The dev keys are printed on the start that created them only: whatever collects
 * this process's output would otherwise keep a working management key from every restart. Later starts
 * name the file that holds them.
 */
function banner(running: RunningStandalone): string {
  const { credentials } = running;
  const file = running.credentialsFile;
  const account = running.credentialsCreated
    ? [
        `Created a dev account with 10 USD of credits (kept in ${file}; printed only this once):`,
        `  account:        ${credentials.account_id}`,
        `  management key: ${credentials.management_key}`,
        `  API key:        ${credentials.api_key}`,
      ]
    : [`Dev account ${credentials.account_id}: its management key and API key are in ${file}`];
  // The example reads the key from the file, so even the first start prints each key once.
  const apiKey = `$(node -p "require('${file}').api_key")`;
  return [
    "",
    `Model Gateway is running on ${running.url} (embedded default)`,
    `  database:      ${running.infrastructure.postgres}`,
    `  event bus:     ${running.infrastructure.bus}`,
    `  hot store:     ${running.infrastructure.hotStore}`,
    "  demo provider: built-in, model demo/echo (a deterministic stand-in, not a real model)",
    ...(running.metricsUrl ? [`  metrics:       ${running.metricsUrl}`] : []),
    ...(running.consoleUrl
      ? [`  web console:   ${running.consoleUrl} (sign in with the management key)`]
      : []),
    "",
    ...account,
    "",
    "Try it:",
    `  curl ${running.url}/v1/chat/completions \\`,
    `    -H "Authorization: Bearer ${apiKey}" \\`,
    `    -H "Content-Type: application/json" \\`,
    `    -d '{"model":"demo/echo","messages":[{"role":"user","content":"Hello"}]}'`,
    "",
  ].join("\n");
}

async function main(): Promise<void> {
  const config = loadStandaloneConfig();
  const logger = createLogger("standalone", config.LOG_LEVEL);
  // Off unless OTEL_TRACES_EXPORTER=otlp: then spans go to the OTLP endpoint (docs/operations.md, Tracing).
  const tracing = startTracingFromEnv(process.env, "model-gateway");
  const running = await startStandalone(config, process.env, logger);
  console.log(banner(running));
  stopOnSignals(logger, async () => {
    await running.stop();
    await tracing.shutdown();
  });
}

runMain(main);
