import { type Env, loadConfig, z } from "@gw/config";
import { controlPlaneEnv, keysClientEnv } from "@gw/service";

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** Generations app settings; a bad value stops start-up with a message naming the variable. */
export function loadGenerationsConfig(env: Env = process.env) {
  return loadConfig(
    {
      ...controlPlaneEnv({ http: 8083, grpc: 50053 }),
      ...keysClientEnv,
      GENERATION_RETENTION_DAYS: positiveInt(90),
      GENERATION_RETENTION_INTERVAL_MS: positiveInt(3_600_000),
      GENERATION_RETENTION_BATCH_SIZE: positiveInt(1_000),
    },
    env,
  );
}

export type GenerationsConfig = ReturnType<typeof loadGenerationsConfig>;
