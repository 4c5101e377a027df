import { connectRedis, RedisAdmissionStore } from "@gw/admission-store";
import { ConfigError } from "@gw/config";
import { runMain } from "@gw/logger";
import { openControlPlane } from "@gw/service";
import { loadBillingConfig } from "./config.js";
import { migrations, SCHEMA } from "./db/index.js";
import type { BillingTables } from "./db/schema.js";
import { redisCheck } from "./routes/health.js";
import { startBilling } from "./start.js";

/**
 * Production entry: Postgres, Kafka (usage events arrive over it) and Redis are required; the embedded
 * default, with its in-process store and one bus shared with the edge, is apps/standalone.
 */
async function main(): Promise<void> {
  const config = loadBillingConfig();
  if (!config.REDIS_URL) throw new ConfigError(["REDIS_URL: required by the billing app in production"]);
  const base = await openControlPlane<BillingTables>("billing", config, { schema: SCHEMA, migrations });
  const redis = await connectRedis(config.REDIS_URL);
  base.onClose(() => redis.disconnect());
  const running = await startBilling(
    {
      ...base.deps,
      store: new RedisAdmissionStore(redis, { keyPrefix: config.REDIS_KEY_PREFIX }),
      hotStoreCheck: redisCheck(redis),
      resolver: base.principals(config.KEYS_GRPC_ADDRESS),
      admission: {
        holdTtlMs: config.HOLD_TTL_MS,
        failOpen: config.ADMISSION_FAIL_OPEN,
        paidRequestsPerMinute: config.PAID_REQUESTS_PER_MINUTE,
      },
      leases: { ttlMs: config.LEASE_TTL_MS ?? config.HOLD_TTL_MS, useMs: config.LEASE_USE_MS },
      reconcile: { rpcUrls: config.X402_RPC_URLS, intervalMs: config.X402_RECONCILE_INTERVAL_MS },
    },
    base.listen,
  );
  await base.serve(running);
}

runMain(main);
