import { z } from "zod";

export { ConfigError, declaredVariables, type Env, loadConfig } from "./load.js";
export { z };

/** Fragments reused across apps. Variable names follow the conventional names of each tool. */
export const fragments = {
  // Generic in the variable name so the parsed config keeps it as a key (PORT, HTTP_PORT, ...).
  port: <Name extends string>(name: Name, fallback: number) =>
    ({ [name]: z.coerce.number().int().min(0).max(65535).default(fallback) }) as Record<
      Name,
      z.ZodDefault<z.ZodCoercedNumber<unknown>>
    >,
  databaseUrl: { DATABASE_URL: z.string().url().optional() },
  redisUrl: { REDIS_URL: z.string().url().optional() },
  kafkaBrokers: {
    KAFKA_BROKERS: z
      .string()
      .optional()
      .transform((value) =>
        value
          ? value
              .split(",")
              .map((broker) => broker.trim())
              .filter(Boolean)
          : undefined,
      ),
  },
  topics: {
    TOPIC_USAGE: z.string().default("gateway.usage.v1"),
    TOPIC_KEY_CHANGES: z.string().default("gateway.key-changes.v1"),
    TOPIC_PAYMENTS: z.string().default("gateway.payments.v1"),
  },
  /**
   * SHUTDOWN_DEADLINE_MS: after SIGTERM, how long requests under way (open streams) may run before they
   * are cut; the default leaves a 30 s Kubernetes grace period room for the flush after it.
   */
  shutdownDeadline: { SHUTDOWN_DEADLINE_MS: z.coerce.number().int().min(0).default(20_000) },
  logLevel: {
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  },
} as const;

export type TopicConfig = { usage: string; keyChanges: string; payments: string };

export function topicsFrom(env: {
  TOPIC_USAGE: string;
  TOPIC_KEY_CHANGES: string;
  TOPIC_PAYMENTS: string;
}): TopicConfig {
  return { usage: env.TOPIC_USAGE, keyChanges: env.TOPIC_KEY_CHANGES, payments: env.TOPIC_PAYMENTS };
}
