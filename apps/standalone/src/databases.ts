import { SCHEMA as BILLING_SCHEMA, type BillingTables, migrations as billingMigrations } from "@gw/billing";
import {
  connectDatabase,
  type Database,
  findRunningEmbeddedPostgres,
  migrateToLatest,
  startEmbeddedPostgres,
} from "@gw/db";
import {
  SCHEMA as GENERATIONS_SCHEMA,
  type GenerationsTables,
  migrations as generationsMigrations,
} from "@gw/generations";
import { SCHEMA as KEYS_SCHEMA, type KeysTables, migrations as keysMigrations } from "@gw/keys";

export interface PostgresServer {
  url: string;
  /** "embedded" when this process started the embedded server (and must stop it). */
  origin: "configured" | "embedded" | "shared-embedded";
  stop(): Promise<void>;
}

/**
 * DATABASE_URL when given; otherwise the embedded PostgreSQL under the data directory — reusing a
 * server another local process (the running gateway) already started, so the CLI and the gateway
 * can work on the same data at the same time.
 */
export async function resolvePostgres(
  databaseUrl: string | undefined,
  dataDirectory: string,
): Promise<PostgresServer> {
  if (databaseUrl) return { url: databaseUrl, origin: "configured", stop: async () => {} };
  const running = await findRunningEmbeddedPostgres(dataDirectory);
  if (running) return { url: running, origin: "shared-embedded", stop: async () => {} };
  const server = await startEmbeddedPostgres(dataDirectory);
  return { url: server.url, origin: "embedded", stop: () => server.stop() };
}

export interface AppDatabases {
  keys: Database<KeysTables>;
  billing: Database<BillingTables>;
  generations: Database<GenerationsTables>;
  close(): Promise<void>;
}

/** One connection pool per app, each confined to its own schema, migrated forward. */
export async function connectAppDatabases(url: string): Promise<AppDatabases> {
  const keys = connectDatabase<KeysTables>({ url, schema: KEYS_SCHEMA, maxConnections: 5 });
  const billing = connectDatabase<BillingTables>({ url, schema: BILLING_SCHEMA, maxConnections: 5 });
  const generations = connectDatabase<GenerationsTables>({
    url,
    schema: GENERATIONS_SCHEMA,
    maxConnections: 5,
  });
  const close = async () => {
    await Promise.all([keys.close(), billing.close(), generations.close()]);
  };
  try {
    await migrateToLatest(keys.db, KEYS_SCHEMA, keysMigrations);
    await migrateToLatest(billing.db, BILLING_SCHEMA, billingMigrations);
    await migrateToLatest(generations.db, GENERATIONS_SCHEMA, generationsMigrations);
  } catch (error) {
    await close();
    throw error;
  }
  return { keys, billing, generations, close };
}
