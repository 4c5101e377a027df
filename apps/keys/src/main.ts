import { walletTokensFromEnv } from "@gw/auth";
import { ConfigError } from "@gw/config";
import { runMain } from "@gw/logger";
import { openControlPlane } from "@gw/service";
import { bundledCatalog } from "./catalog/content.js";
import { cloudDeclarations, withCloudDeclarations } from "./catalog/declared.js";
import { connectEndpointHealth } from "./catalog/endpoint-health.js";
import { loadKeysConfig } from "./config.js";
import { migrations, SCHEMA } from "./db/index.js";
import type { KeysTables } from "./db/schema.js";
import { accountLifecycleFrom } from "./identity/accounts/lifecycle.js";
import { connectBillingUsage } from "./identity/usage/billing.js";
import { startKeys } from "./start.js";

/** Production entry: Postgres and Kafka are required; the embedded default is apps/standalone. */
async function main(): Promise<void> {
  const config = loadKeysConfig();
  const base = await openControlPlane<KeysTables>("keys", config, {
    schema: SCHEMA,
    migrations,
    // Key-change events keep edges from trusting a revoked key: a broker outage spools them to disk.
    spoolDirectory: config.EVENT_SPOOL_DIR,
  });
  const billing = connectBillingUsage(config.BILLING_GRPC_ADDRESS, { issuer: base.deps.serviceAuth.issuer });
  base.onClose(billing.close);
  const health = connectEndpointHealth(config.GENERATIONS_GRPC_ADDRESS, {
    issuer: base.deps.serviceAuth.issuer,
  });
  base.onClose(health.close);
  const running = await startKeys(
    {
      ...base.deps,
      billing: billing.usage,
      health: health.source,
      byokMasterKey: config.BYOK_MASTER_KEY,
      catalog: withCloudDeclarations(bundledCatalog(), cloudDeclarations(config)),
      byokMasterKeyPrevious: config.BYOK_MASTER_KEY_PREVIOUS,
      wallet: walletSettings(config.PUBLIC_BASE_URL),
      accounts: accountLifecycleFrom(config),
    },
    base.listen,
  );
  await base.serve(running);
}

/** Wallet sign-in needs both the JWT secret (required in production) and the public URL. */
function walletSettings(publicBaseUrl: string | undefined) {
  const tokens = walletTokensFromEnv(process.env);
  if (tokens && !publicBaseUrl)
    throw new ConfigError(["PUBLIC_BASE_URL: required with WALLET_JWT_SECRET (it is the sign-in domain)"]);
  return tokens && publicBaseUrl ? { tokens, publicBaseUrl } : undefined;
}

runMain(main);
