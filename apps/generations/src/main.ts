import { runMain } from "@gw/logger";
import { openControlPlane } from "@gw/service";
import { loadGenerationsConfig } from "./config.js";
import { migrations, SCHEMA } from "./db/index.js";
import type { GenerationsTables } from "./db/schema.js";
import { connectCatalogEndpoints } from "./health/known-endpoints.js";
import { startGenerations } from "./start.js";

/** Production entry: Postgres and Kafka are required; the embedded default is apps/standalone. */
async function main(): Promise<void> {
  const config = loadGenerationsConfig();
  const base = await openControlPlane<GenerationsTables>("generations", config, {
    schema: SCHEMA,
    migrations,
  });
  // The catalogue's endpoints, for the health aggregator (attempts at anything else are not kept).
  const catalog = connectCatalogEndpoints(config.KEYS_GRPC_ADDRESS, {
    issuer: base.deps.serviceAuth.issuer,
    logger: base.deps.logger,
  });
  base.onClose(catalog.close);
  const running = await startGenerations(
    {
      ...base.deps,
      resolver: base.principals(config.KEYS_GRPC_ADDRESS),
      knownEndpoints: catalog.endpoints,
      retention: {
        retentionDays: config.GENERATION_RETENTION_DAYS,
        intervalMs: config.GENERATION_RETENTION_INTERVAL_MS,
        batchSize: config.GENERATION_RETENTION_BATCH_SIZE,
      },
    },
    base.listen,
  );
  await base.serve(running);
}

runMain(main);
