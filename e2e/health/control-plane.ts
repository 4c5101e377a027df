import { MemoryAdmissionStore } from "@gw/admission-store";
import { PrincipalResolver } from "@gw/auth";
import {
  SCHEMA as BILLING_SCHEMA,
  type BillingTables,
  migrations as billingMigrations,
  type RunningBilling,
  startBilling,
} from "@gw/billing";
import type { TopicConfig } from "@gw/config";
import { type Database, freePort } from "@gw/db";
import type { EventBus } from "@gw/events";
import {
  connectCatalogEndpoints,
  SCHEMA as GENERATIONS_SCHEMA,
  type GenerationsTables,
  migrations as generationsMigrations,
  type RunningGenerations,
  startGenerations,
} from "@gw/generations";
import {
  type CatalogContent,
  type CreatedAccount,
  connectBillingUsage,
  connectEndpointHealth,
  createAccount,
  SCHEMA as KEYS_SCHEMA,
  type KeysTables,
  migrations as keysMigrations,
  type RunningKeys,
  startKeys,
} from "@gw/keys";
import { silentLogger } from "@gw/logger";
import { migratedTestDatabase, uniqueName } from "@gw/testing";

const HOST = "127.0.0.1";

export interface HealthControlPlane {
  keys: RunningKeys;
  billing: RunningBilling;
  generations: RunningGenerations;
  keysDb: Database<KeysTables>;
  billingDb: Database<BillingTables>;
  /** Where the health aggregator's buckets are. */
  generationsDb: Database<GenerationsTables>;
  stop(): Promise<void>;
}

/**
 * The three control-plane apps on loopback, wired as in production for endpoint health: generations'
 * aggregator consumes the usage events and asks keys' CatalogService for the catalogue's endpoints;
 * keys' endpoints view polls generations' EndpointHealthService. Each app on a fresh database.
 */
export async function startHealthControlPlane(input: {
  bus: EventBus;
  topics: TopicConfig;
  /** Default: the bundled catalogue. */
  catalog?: CatalogContent;
}): Promise<HealthControlPlane> {
  const stops: (() => Promise<unknown>)[] = [];
  const stop = async () => {
    for (const step of stops.reverse()) await step().catch(() => undefined);
  };
  try {
    const shared = { bus: input.bus, topics: input.topics, logger: silentLogger() };
    const keysDb = await migratedTestDatabase<KeysTables>(KEYS_SCHEMA, keysMigrations);
    stops.push(() => keysDb.drop());
    const billingDb = await migratedTestDatabase<BillingTables>(BILLING_SCHEMA, billingMigrations);
    stops.push(() => billingDb.drop());
    const generationsDb = await migratedTestDatabase<GenerationsTables>(
      GENERATIONS_SCHEMA,
      generationsMigrations,
    );
    stops.push(() => generationsDb.drop());
    // Keys and generations each call the other: both addresses are fixed before either starts.
    const keysAddress = `${HOST}:${await freePort()}`;
    const generationsGrpcPort = await freePort();
    const principals = PrincipalResolver.connect(keysAddress, {});
    stops.push(async () => principals.close());
    const billing = await startBilling(
      {
        ...shared,
        database: billingDb.database,
        store: new MemoryAdmissionStore(),
        resolver: principals.resolver,
      },
      { host: HOST, httpPort: 0, grpcPort: 0 },
    );
    stops.push(() => billing.stop());
    const usage = connectBillingUsage(billing.grpcAddress, {});
    stops.push(async () => usage.close());
    const health = connectEndpointHealth(`${HOST}:${generationsGrpcPort}`);
    stops.push(async () => health.close());
    const keys = await startKeys(
      {
        ...shared,
        database: keysDb.database,
        billing: usage.usage,
        health: health.source,
        ...(input.catalog ? { catalog: input.catalog } : {}),
      },
      { host: HOST, httpPort: 0, grpcPort: Number(keysAddress.split(":")[1]) },
    );
    stops.push(() => keys.stop());
    const catalog = connectCatalogEndpoints(keysAddress);
    stops.push(async () => catalog.close());
    const generations = await startGenerations(
      {
        ...shared,
        database: generationsDb.database,
        resolver: principals.resolver,
        knownEndpoints: catalog.endpoints,
        // Its own group: another run on the same broker in group `generations` would take its partitions.
        usageGroupId: uniqueName("generations"),
      },
      { host: HOST, httpPort: 0, grpcPort: generationsGrpcPort },
    );
    stops.push(() => generations.stop());
    return {
      keys,
      billing,
      generations,
      keysDb: keysDb.database,
      billingDb: billingDb.database,
      generationsDb: generationsDb.database,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

export interface HealthHarness {
  bus: EventBus;
  topics: TopicConfig;
  /** The generations database, where the aggregator's buckets are. */
  database: Database<GenerationsTables>;
  request(
    method: string,
    path: string,
    options?: { key?: string },
  ): Promise<{ body: Record<string, unknown> }>;
  account(): Promise<CreatedAccount>;
  close(): Promise<void>;
}

/**
 * The health control plane on a bus of the caller's (the harness closes it), with keys' REST for the
 * endpoints view and its accounts: the aggregator's tests publish usage events and read the view.
 */
export async function startHealthHarness(input: {
  bus: (topics: TopicConfig) => Promise<EventBus>;
}): Promise<HealthHarness> {
  const topics: TopicConfig = {
    usage: uniqueName("test-usage"),
    keyChanges: uniqueName("test-key-changes"),
    payments: uniqueName("test-payments"),
  };
  const bus = await input.bus(topics);
  const plane = await startHealthControlPlane({ bus, topics }).catch(async (error: unknown) => {
    await bus.close();
    throw error;
  });
  let accounts = 0;
  return {
    bus,
    topics,
    database: plane.generationsDb,
    request: async (method, path, options = {}) => {
      const headers: Record<string, string> = options.key ? { authorization: `Bearer ${options.key}` } : {};
      const response = await fetch(`${plane.keys.httpUrl}${path}`, { method, headers });
      const text = await response.text();
      return { body: text ? JSON.parse(text) : {} };
    },
    account: () => createAccount(plane.keysDb, { name: `account ${++accounts}` }),
    close: async () => {
      await plane.stop();
      await bus.close();
    },
  };
}
