import { type Env, fragments, loadConfig, z } from "@gw/config";
import { DEFAULT_BODY_TIMEOUT_MS } from "@gw/http";
import { metricsEnv } from "@gw/metrics";
import { serviceAuthEnv } from "@gw/rpc";
import { LEASE_EXPIRY_MARGIN_MS } from "./admission/leases.js";
import { DEFAULT_PAID_REQUESTS_PER_MINUTE } from "./admission/limits.js";
import { DEFAULT_HOLD_TTL_MS, DEFAULT_LEASE_USE_MS } from "./deps.js";

// fragments.port() types its key as `string`, which would erase the variable name from the config type.
const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);
const flag = z
  .enum(["true", "false"], { message: "expected true or false" })
  .default("false")
  .transform((value) => value === "true");

/** Billing app settings; a bad value stops start-up with a message naming the variable. */
export function loadBillingConfig(env: Env = process.env) {
  return loadConfig(
    {
      HOST: z.string().min(1).default("0.0.0.0"),
      HTTP_PORT: port(8082),
      GRPC_PORT: port(50052),
      ...fragments.databaseUrl,
      ...fragments.redisUrl,
      ...fragments.kafkaBrokers,
      ...fragments.topics,
      ...fragments.logLevel,
      ...fragments.shutdownDeadline,
      ...serviceAuthEnv,
      ...metricsEnv,
      /** A management request whose body is still arriving after this long is answered 408. */
      BODY_TIMEOUT_MS: z.coerce.number().int().min(100).default(DEFAULT_BODY_TIMEOUT_MS),
      /** KeyService, for authenticating management keys on /api/v1/credits. */
      KEYS_GRPC_ADDRESS: z.string().min(1).default("127.0.0.1:50051"),
      /** How long a spend hold pins budget if the edge never settles or releases it. */
      HOLD_TTL_MS: z.coerce.number().int().min(1_000).default(DEFAULT_HOLD_TTL_MS),
      /**
       * A budget lease's hold TTL (default: HOLD_TTL_MS). Above the 60 s in which an edge starts no
       * more requests under a lease, so those it started can finish inside the hold.
       */
      LEASE_TTL_MS: z.coerce
        .number()
        .int()
        .min(LEASE_EXPIRY_MARGIN_MS + 1_000)
        .optional(),
      /** How long an edge starts requests under one lease before it acquires the next. */
      LEASE_USE_MS: z.coerce.number().int().min(1_000).default(DEFAULT_LEASE_USE_MS),
      /**
       * Paid-model requests one account may start per UTC minute, all keys and edges together (429
       * `rate_limited` with Retry-After beyond it); 0 turns the ceiling off.
       */
      PAID_REQUESTS_PER_MINUTE: z.coerce.number().int().min(0).default(DEFAULT_PAID_REQUESTS_PER_MINUTE),
      /** `true`: Admit answers "admitted" (without a hold) when Redis is down, instead of UNAVAILABLE. */
      ADMISSION_FAIL_OPEN: flag,
      /** Prefix of billing's Redis keys (before the `{acct:<id>}` hash tag). */
      REDIS_KEY_PREFIX: z
        .string()
        .regex(/^[^{}]*$/, "must not contain braces")
        .default("gw:billing:"),
    },
    env,
  );
}

export type BillingConfig = ReturnType<typeof loadBillingConfig>;
