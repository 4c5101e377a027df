import { randomUUID } from "node:crypto";
import {
  type AdmissionStore,
  connectRedis,
  RedisAdmissionStore,
  type RedisStoreOptions,
} from "@gw/admission-store";
import type { TopicConfig } from "@gw/config";
import { type EventBus, InProcessEventBus } from "@gw/events";
import { silentLogger } from "@gw/logger";
import type { ChargePolicy } from "@gw/money";
import { BillingServiceClient } from "@gw/proto/billing/v1/billing";
import {
  clientOptions,
  insecureCredentials,
  type ServiceAuth,
  type ServiceTokenIssuer,
  unaryCall,
} from "@gw/rpc";
import { serviceUrl, uniqueName } from "@gw/testing";
import type { Redis } from "ioredis";
import type { AdmissionSettings } from "../admission/admission.js";
import { redisCheck } from "../routes/health.js";
import { type RunningBilling, startBilling } from "../start.js";
import { createBillingTestDatabase, type TestDatabase } from "./database.js";
import { type KeysStub, startKeysStub } from "./keys-stub.js";
import { type UsageSpec, usageEventFor } from "./usage-events.js";

export const USD = 1_000_000_000_000n;

export function testTopics(): TopicConfig {
  return {
    usage: uniqueName("test-usage"),
    keyChanges: uniqueName("test-key-changes"),
    payments: uniqueName("test-payments"),
  };
}

export function redisStore(redis: Redis, options: RedisStoreOptions = {}): RedisAdmissionStore {
  return new RedisAdmissionStore(redis, { keyPrefix: `${uniqueName("test-billing")}:`, ...options });
}

/** Deletes the keys of the stores this test file created (other files run concurrently). */
async function deleteKeys(redis: Redis, prefix: string): Promise<void> {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
}

/** A settable clock for holds and usage windows. */
export class TestClock {
  constructor(public value: number = Date.now()) {}
  readonly now = (): number => this.value;
  advance(ms: number): void {
    this.value += ms;
  }
}

export interface HarnessOptions {
  store?: (redis: Redis) => AdmissionStore;
  /** The bus to run on (the caller closes it); it may create the run's topics first. */
  bus?: (topics: TopicConfig) => Promise<EventBus>;
  clock?: TestClock;
  admission?: Partial<AdmissionSettings>;
  /** Service authentication on the app's ports (its rpc client then signs as the edge's issuer given). */
  serviceAuth?: { app: ServiceAuth; rpcIssuer: ServiceTokenIssuer };
}

export interface Harness {
  db: TestDatabase;
  redis: Redis;
  bus: EventBus;
  topics: TopicConfig;
  store: AdmissionStore;
  keys: KeysStub;
  clock: TestClock;
  running: RunningBilling;
  rpc: ReturnType<typeof billingRpc>;
  /** A second Redis store under this harness's prefix (cleaned up on stop). */
  newRedisStore(options?: RedisStoreOptions): RedisAdmissionStore;
  /**
   * Another billing instance on the same database and the same Redis keys (its own connection), as
   * a second replica behind other edges runs in production.
   */
  startReplica(): Promise<{ rpc: ReturnType<typeof billingRpc>; stop(): Promise<void> }>;
  /** Publishes the usage event the edge sends for such a request (its own encoder); returns its id. */
  publishUsage(usage: UsageSpec, eventId?: string, policy?: ChargePolicy): string;
  stop(): Promise<void>;
}

/** The billing app on a real database and Redis, served over real HTTP and gRPC on loopback. */
export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const db = await createBillingTestDatabase();
  const redis = await connectRedis(serviceUrl("redis"));
  const keys = await startKeysStub();
  const topics = testTopics();
  const bus = options.bus ? await options.bus(topics) : new InProcessEventBus();
  const clock = options.clock ?? new TestClock();
  const prefix = `${uniqueName("test-billing")}:`;
  const newRedisStore = (storeOptions: RedisStoreOptions = {}) =>
    new RedisAdmissionStore(redis, { ...storeOptions, keyPrefix: `${prefix}${uniqueName("store")}:` });
  const storePrefix = `${prefix}${uniqueName("store")}:`;
  const store = options.store
    ? options.store(redis)
    : new RedisAdmissionStore(redis, { keyPrefix: storePrefix });
  const start = (appStore: AdmissionStore, appBus: EventBus = bus) =>
    startBilling(
      {
        database: db.database,
        bus: appBus,
        topics,
        logger: silentLogger(),
        store: appStore,
        resolver: keys.resolver,
        clock: clock.now,
        ...(options.admission ? { admission: options.admission } : {}),
        serviceAuth: options.serviceAuth?.app,
        hotStoreCheck: redisCheck(redis),
      },
      { host: "127.0.0.1", httpPort: 0, grpcPort: 0 },
    );
  const running = await start(store);
  const rpc = billingRpc(running.grpcAddress, options.serviceAuth?.rpcIssuer);
  const startReplica = async () => {
    const replicaRedis = await connectRedis(serviceUrl("redis"));
    // Its own bus: usage events reach the primary, whose consumer updates the shared Redis view.
    const replicaBus = new InProcessEventBus();
    const replica = await start(
      new RedisAdmissionStore(replicaRedis, { keyPrefix: storePrefix }),
      replicaBus,
    );
    const replicaRpc = billingRpc(replica.grpcAddress, options.serviceAuth?.rpcIssuer);
    return {
      rpc: replicaRpc,
      stop: async () => {
        await replica.stop();
        await replicaBus.close();
        replicaRpc.close();
        replicaRedis.disconnect();
      },
    };
  };
  return {
    db,
    redis,
    bus,
    topics,
    store,
    keys,
    clock,
    running,
    rpc,
    newRedisStore,
    startReplica,
    publishUsage: (usage, eventId = `gen-${randomUUID()}`, policy) => {
      const event = usageEventFor(usage, eventId, policy);
      bus.publish(topics.usage, event.key, event.value, event.headers);
      return eventId;
    },
    stop: async () => {
      await running.stop();
      rpc.close();
      await keys.stop();
      if (!options.bus) await bus.close();
      await deleteKeys(redis, prefix);
      redis.disconnect();
      await db.drop();
    },
  };
}

/** A BillingService client; with an issuer it signs its calls as that app. */
export function billingRpc(address: string, issuer?: ServiceTokenIssuer) {
  const client = new BillingServiceClient(address, insecureCredentials(), clientOptions(issuer, "billing"));
  return {
    admit: unaryCall(client, client.admit),
    settle: unaryCall(client, client.settle),
    release: unaryCall(client, client.release),
    getUsage: unaryCall(client, client.getUsage),
    acquireLease: unaryCall(client, client.acquireLease),
    returnLease: unaryCall(client, client.returnLease),
    creditPayment: unaryCall(client, client.creditPayment),
    close: () => client.close(),
  };
}
