import { z } from "zod";

export { z };

/**
 * Config is parsed once at start-up from environment variables by zod fragments, one per concern.
 * A bad value stops the process with a message that names the variable, never a stack trace later.
 */
export class ConfigError extends Error {
  constructor(readonly issues: string[]) {
    super(`invalid configuration:\n  ${issues.join("\n  ")}`);
    this.name = "ConfigError";
  }
}

export type Env = Record<string, string | undefined>;

let recording: Set<string> | undefined;

/**
 * The variable names every `loadConfig` call made while `load` ran declared, read or not (an unset
 * optional variable never shows in the parsed result). For the test that holds the README's
 * configuration table to the apps' real configuration; `load` may throw.
 */
export function declaredVariables(load: () => unknown): Set<string> {
  const names = new Set<string>();
  const previous = recording;
  recording = names;
  try {
    load();
  } catch {
    // A missing required variable still declared every name before the parse failed.
  } finally {
    recording = previous;
  }
  return names;
}

export function loadConfig<Shape extends z.ZodRawShape>(
  shape: Shape,
  env: Env = process.env,
): z.infer<z.ZodObject<Shape>> {
  for (const name of Object.keys(shape)) recording?.add(name);
  // An empty variable means "not set" (as in `FOO= command`), never an empty value.
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ""),
  );
  const result = z.object(shape).safeParse(present);
  if (result.success) return result.data;
  throw new ConfigError(
    result.error.issues.map((issue) => `${issue.path.join(".") || "(env)"}: ${issue.message}`),
  );
}

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
export * from "./x402.js";
