import { type Logger, pino } from "pino";

export type { Logger };

/**
 * Structured JSON logs. Secrets never reach logs: authorization material is redacted by path, and
 * callers log key hashes, never key secrets.
 */
export const REDACTED_PATHS = [
  "req.headers.authorization",
  "req.headers['x-api-key']",
  "req.headers['x-goog-api-key']",
  "headers.authorization",
  "headers['x-api-key']",
  "headers['x-goog-api-key']",
  "*.apiKey",
  "*.api_key",
  "*.secret",
  "*.password",
  "key",
  "*.key",
  "management_key",
];

export function createLogger(name: string, level: string = process.env.LOG_LEVEL ?? "info"): Logger {
  return pino({ name, level, redact: { paths: REDACTED_PATHS, censor: "[redacted]" } });
}

/** A logger that writes nothing; for tests and library defaults. */
export function silentLogger(): Logger {
  return pino({ level: "silent" });
}

/** A logger that keeps every line in memory, with production redaction; for tests that audit log output. */
export function memoryLogger(level = "trace"): { logger: Logger; lines(): string[] } {
  const lines: string[] = [];
  const logger = pino(
    { level, redact: { paths: REDACTED_PATHS, censor: "[redacted]" } },
    { write: (line: string) => void lines.push(line) },
  );
  return { logger, lines: () => [...lines] };
}
export { runMain, stopOnSignals } from "./lifecycle.js";
