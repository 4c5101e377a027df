import { parseRpcUrls } from "@gw/billing";
import { type Env, fragments, loadConfig, topicsFrom, z } from "@gw/config";
import { accountLifecycleEnv, cloudDeclarationsEnv } from "@gw/keys";
import { metricsEnv } from "@gw/metrics";
import { dataDir } from "./data-dir.js";

/** The embedded default's settings; every external service is optional here. */
export function loadStandaloneConfig(env: Env = process.env) {
  const parsed = loadConfig(
    {
      PORT: z.coerce.number().int().min(0).max(65535).default(8080),
      // Loopback by default: the embedded default prints working credentials.
      HOST: z.string().min(1).default("127.0.0.1"),
      GW_DATA_DIR: z.string().optional(),
      ...fragments.databaseUrl,
      ...fragments.redisUrl,
      ...fragments.kafkaBrokers,
      ...fragments.topics,
      /** The keys app's account-creation limits and unused-account sweep (ACCOUNT_CREATION_*, ACCOUNT_SWEEP_*). */
      ...accountLifecycleEnv,
      /** The outbox (no KAFKA_BROKERS): a consumer group unused this long stops holding back pruning. */
      OUTBOX_STALE_GROUP_AFTER_S: z.coerce.number().int().min(60).max(31_536_000).default(86_400),
      /** Seals accounts' own provider keys (BYOK); unset = the BYOK routes answer 503. */
      BYOK_MASTER_KEY: z.string().min(1).optional(),
      /** The operator's zero-data-retention declarations, for the keys app inside (the edge reads the map too). */
      ...cloudDeclarationsEnv,
      /** During a rotation, the key being replaced (opens, never seals); the keys app checks both. */
      BYOK_MASTER_KEY_PREVIOUS: z.string().min(1).optional(),
      /** x402 reconciliation's chain RPCs (`<network>=<url>,…`) and period, as billing reads them. */
      X402_RPC_URLS: z
        .string()
        .default("")
        .transform((value, context) => parseRpcUrls(value, context)),
      X402_RECONCILE_INTERVAL_MS: z.coerce.number().int().min(100).default(30_000),
      /** Billing's paid-model request ceiling per account and UTC minute; unset = billing's default. */
      PAID_REQUESTS_PER_MINUTE: z.coerce.number().int().min(0).optional(),
      /** The body timeout of the control-plane apps inside (the edge reads the same variable); unset = theirs. */
      BODY_TIMEOUT_MS: z.coerce.number().int().min(100).optional(),
      /** One GET /metrics for all four apps inside, on HOST at this port (unset = not served). */
      ...metricsEnv,
      LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("warn"),
    },
    env,
  );
  return { ...parsed, topics: topicsFrom(parsed), dataDir: dataDir(env) };
}

export type StandaloneConfig = ReturnType<typeof loadStandaloneConfig>;
