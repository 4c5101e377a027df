import { ConfigError } from "@gw/config";
import type { EventBus } from "@gw/events";
import { createLogger, type Logger } from "@gw/logger";
import { type EdgeConfig, loadEdgeConfig } from "./config.js";
import { connectEdgeDeps } from "./connect.js";
import { startEdge } from "./server.js";

// TODO(@gw/kafka): import { KafkaEventBus } from "@gw/kafka";
// The package is still being written. Until it is built and wired below (and added to package.json),
// the production entry refuses to start rather than run without a durable bus.

/**
 * Production entry of the data plane: config from the environment, gRPC to keys and billing, Kafka for
 * usage out and key changes in. The edge owns no database, so there are no migrations to run.
 */
async function main(): Promise<void> {
  const config = loadEdgeConfig(process.env);
  const logger = createLogger("edge", config.logLevel);
  const bus = connectKafka(config, logger);
  const connected = connectEdgeDeps(config, { bus, logger });
  const running = await startEdge(connected.deps, { host: config.host, httpPort: config.httpPort });
  logger.info({ providers: config.providers.map((provider) => provider.id) }, "edge started");

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "edge stopping");
    await running.stop();
    await bus.flush();
    await bus.close();
    await connected.close();
    process.exit(0);
  };
  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));
}

function connectKafka(config: EdgeConfig, _logger: Logger): EventBus {
  if (!config.kafkaBrokers) throw new ConfigError(["KAFKA_BROKERS: required by the edge in production"]);
  // TODO(@gw/kafka): return new KafkaEventBus({ brokers: config.kafkaBrokers, clientId: `edge-${config.instanceId}`, logger: _logger });
  throw new ConfigError(["KAFKA_BROKERS: the Kafka event bus (@gw/kafka) is not wired into the edge yet"]);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
