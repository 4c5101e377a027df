import { fragments, z } from "@gw/config";
import { DEFAULT_BODY_TIMEOUT_MS } from "@gw/http";
import { metricsEnv } from "@gw/metrics";
import { serviceAuthEnv } from "@gw/rpc";

// fragments.port() types its key as `string`, which would erase the variable name from the config type.
const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);

/**
 * The variables every control-plane app reads, for its loadConfig: where it listens (each app has its
 * own default ports), its database and broker, topics, log level, shutdown deadline, service
 * authentication, metrics and the management routes' body timeout.
 */
export function controlPlaneEnv(ports: { http: number; grpc: number }) {
  return {
    HOST: z.string().min(1).default("0.0.0.0"),
    HTTP_PORT: port(ports.http),
    GRPC_PORT: port(ports.grpc),
    ...fragments.databaseUrl,
    ...fragments.kafkaBrokers,
    ...fragments.topics,
    ...fragments.logLevel,
    ...fragments.shutdownDeadline,
    ...serviceAuthEnv,
    ...metricsEnv,
    /** A management request whose body is still arriving after this long is answered 408. */
    BODY_TIMEOUT_MS: z.coerce.number().int().min(100).default(DEFAULT_BODY_TIMEOUT_MS),
  };
}

/** KeyService, which authenticates the management and API keys on an app's REST routes (billing, generations). */
export const keysClientEnv = {
  KEYS_GRPC_ADDRESS: z.string().min(1).default("127.0.0.1:50051"),
};

/** The parsed common settings (what openControlPlane reads). */
export type ControlPlaneConfig = z.infer<z.ZodObject<ReturnType<typeof controlPlaneEnv>>>;
