import { ConfigError } from "@gw/config";
import { KafkaEventBus } from "@gw/kafka";
import { createLogger, runMain, stopOnSignals } from "@gw/logger";
import { serveMetrics } from "@gw/metrics";
import { startTracingFromEnv } from "@gw/telemetry";
import { loadEdgeConfig } from "./config.js";
import { connectEdgeDeps } from "./connect.js";
import { startEdge } from "./server.js";

/**
 * Production entry of the data plane: config from the environment, gRPC to keys and billing, Kafka for
 * usage out and key changes in. The edge owns no database, so there are no migrations to run.
 */
async function main(): Promise<void> {
  const config = loadEdgeConfig(process.env);
  const logger = createLogger("edge", config.logLevel);
  // Off unless OTEL_TRACES_EXPORTER=otlp: then spans go to the OTLP endpoint (docs/operations.md, Tracing).
  const tracing = startTracingFromEnv(process.env, "gw-edge");
  if (!config.kafkaBrokers) throw new ConfigError(["KAFKA_BROKERS: required by the edge in production"]);
  // The control plane answers only signed callers; an edge without its key could serve nothing.
  if (!config.serviceAuth) {
    throw new ConfigError(["SERVICE_AUTH_PRIVATE_KEY and SERVICE_AUTH_PUBLIC_KEYS: required by the edge"]);
  }
  // The spool is the edge's journal: every usage event (money) is written there before the response
  // completes, and kept until the broker has it, so neither a broker outage nor a killed edge loses
  // one. The client id names this edge's file: a restart with the same EDGE_INSTANCE_ID replays it.
  const bus = new KafkaEventBus({
    brokers: config.kafkaBrokers,
    clientId: `edge-${config.instanceId}`,
    logger,
    spool: { directory: config.spoolDir, journal: true },
    producer: config.producer,
  });
  const connected = connectEdgeDeps(config, { bus, logger });
  const running = await startEdge(connected.deps, { host: config.host, httpPort: config.httpPort });
  const metrics =
    config.metricsPort === undefined
      ? undefined
      : await serveMetrics(config.host, config.metricsPort, logger);
  logger.info(
    {
      providers: config.providers.map((provider) => provider.id),
      url: running.httpUrl,
      console: running.consoleUrl,
      metrics: metrics?.url,
    },
    "edge started",
  );

  stopOnSignals(logger, async () => {
    await running.stop();
    // close() waits a bounded time for the backlog and spools the rest; flush() could wait on a dead broker forever.
    await bus.close();
    await connected.close();
    await metrics?.close();
    await tracing.shutdown();
  });
}

runMain(main);
