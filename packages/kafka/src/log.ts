import type { Logger } from "@gw/logger";
import { type LogEntry, type logCreator, logLevel } from "kafkajs";

/**
 * Routes kafkajs logs into the service's pino logger. kafkajs reports every refused connection as an
 * ERROR while it retries; the bus decides what an outage means (and logs that once), so kafkajs'
 * own errors are demoted to warnings.
 */
export function pinoLogCreator(logger: Logger): logCreator {
  const child = logger.child({ component: "kafkajs" });
  return () =>
    ({ namespace, level, log }: LogEntry) => {
      const { message, timestamp: _timestamp, logger: _logger, ...extra } = log;
      if (IGNORED_MESSAGES.some((ignored) => message.startsWith(ignored))) return;
      const fields = { namespace, ...extra };
      if (level === logLevel.ERROR || level === logLevel.WARN) child.warn(fields, message);
      else if (level === logLevel.INFO) child.info(fields, message);
      else child.debug(fields, message);
    };
}

/**
 * The bus resends a failed batch unchanged, so the idempotent producer's sequence numbers still
 * deduplicate it on the broker; kafkajs cannot know that and warns on every producer.
 */
const IGNORED_MESSAGES = ["Limiting retries for the idempotent producer"];

/** kafkajs' own threshold: WARN normally, everything when the service logs at debug. */
export function kafkajsLevel(logger: Logger): logLevel {
  if (logger.isLevelEnabled("debug")) return logLevel.DEBUG;
  if (logger.isLevelEnabled("warn")) return logLevel.WARN;
  return logLevel.NOTHING;
}
