import { type Env, fragments, loadConfig, z } from "@gw/config";

// fragments.port() types its key as `string`, which would erase the variable name from the config type.
const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);

/** Keys app settings; a bad value stops start-up with a message naming the variable. */
export function loadKeysConfig(env: Env = process.env) {
  return loadConfig(
    {
      HOST: z.string().min(1).default("0.0.0.0"),
      HTTP_PORT: port(8081),
      GRPC_PORT: port(50051),
      ...fragments.databaseUrl,
      ...fragments.kafkaBrokers,
      ...fragments.topics,
      ...fragments.logLevel,
      /** Billing's gRPC address, for the usage fields of the Key object. */
      BILLING_GRPC_ADDRESS: z.string().min(1).default("127.0.0.1:50052"),
      /** Where key-change events wait while the broker is unreachable, so none is lost on restart. */
      EVENT_SPOOL_DIR: z.string().min(1).default(".data/spool"),
    },
    env,
  );
}

export type KeysConfig = ReturnType<typeof loadKeysConfig>;
