import { type Env, fragments, loadConfig, z } from "@gw/config";
import { DEFAULT_BODY_TIMEOUT_MS } from "@gw/http";
import { metricsEnv } from "@gw/metrics";
import { serviceAuthEnv } from "@gw/rpc";

// fragments.port() types its key as `string`, which would erase the variable name from the config type.
const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);
const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** Generations app settings; a bad value stops start-up with a message naming the variable. */
export function loadGenerationsConfig(env: Env = process.env) {
  return loadConfig(
    {
      HOST: z.string().min(1).default("0.0.0.0"),
      HTTP_PORT: port(8083),
      GRPC_PORT: port(50053),
      ...fragments.databaseUrl,
      ...fragments.kafkaBrokers,
      ...fragments.topics,
      ...fragments.logLevel,
      ...fragments.shutdownDeadline,
      ...serviceAuthEnv,
      ...metricsEnv,
      /** A management request whose body is still arriving after this long is answered 408. */
      BODY_TIMEOUT_MS: z.coerce.number().int().min(100).default(DEFAULT_BODY_TIMEOUT_MS),
      /** KeyService (authenticates callers of the REST route) and CatalogService (the endpoints health keeps). */
      KEYS_GRPC_ADDRESS: z.string().min(1).default("127.0.0.1:50051"),
      GENERATION_RETENTION_DAYS: positiveInt(90),
      GENERATION_RETENTION_INTERVAL_MS: positiveInt(3_600_000),
      GENERATION_RETENTION_BATCH_SIZE: positiveInt(1_000),
    },
    env,
  );
}

export type GenerationsConfig = ReturnType<typeof loadGenerationsConfig>;
