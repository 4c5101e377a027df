import { randomBytes } from "node:crypto";
import type { TopicConfig } from "@gw/config";
import type { Database } from "@gw/db";
import {
  decodeEnvelope,
  decodePayload,
  type EventBus,
  InProcessEventBus,
  KEY_CHANGED_V1,
  type KeyChanged,
} from "@gw/events";
import { type Logger, silentLogger } from "@gw/logger";
import type { ServiceAuth } from "@gw/rpc";
import { type MigratedTestDatabase, migratedTestDatabase, uniqueName } from "@gw/testing";
import { migrations, SCHEMA } from "../db/index.js";
import type { KeysTables } from "../db/schema.js";
import type { KeysDeps } from "../deps.js";
import { type CreatedAccount, createAccount } from "../identity/operator.js";
import { connectBillingUsage } from "../identity/usage/billing.js";
import { type RunningKeys, startKeys } from "../start.js";
import { fixtureCatalog } from "./catalog-fixture.js";
import { type FixedBilling, startFixedBilling } from "./fixed-billing.js";

export interface HttpResult {
  status: number;
  headers: Headers;
  // Response bodies are JSON of unknown shape; tests assert on them field by field.
  body: Record<string, unknown>;
}

export interface KeysHarness {
  database: Database<KeysTables>;
  bus: EventBus;
  topics: TopicConfig;
  billing: FixedBilling;
  running: RunningKeys;
  /** Every key-change event published so far, decoded. */
  keyChanges: KeyChanged[];
  request(method: string, path: string, options?: { key?: string; body?: unknown }): Promise<HttpResult>;
  account(name?: string): Promise<CreatedAccount>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  /** The bus to run on; default the in-process bus. The harness closes it. */
  bus?: (topics: TopicConfig) => Promise<EventBus>;
  /** Default: silent. */
  logger?: Logger;
  /** BYOK master key; default a random one, null to run without BYOK. */
  byokMasterKey?: string | null;
  /** BYOK_MASTER_KEY_PREVIOUS (a rotation under way); default none. */
  byokMasterKeyPrevious?: string;
  /** A database to run on instead of a fresh one (another "replica" or a restart); the caller drops it. */
  database?: MigratedTestDatabase<KeysTables>;
  /** Wallet sign-in (JWT signer and public base URL); default off. */
  wallet?: KeysDeps["wallet"];
  /** Service authentication on the app's ports; default off (the tests of other behaviour call it bare). */
  serviceAuth?: ServiceAuth;
  /** Account-creation limits and the unused-account sweep; default the app's defaults. */
  accounts?: KeysDeps["accounts"];
}

/** The keys app on ephemeral ports over a fresh database, an event bus and a fixed billing. */
export async function startKeysHarness(options: HarnessOptions = {}): Promise<KeysHarness> {
  const test = options.database ?? (await migratedTestDatabase<KeysTables>(SCHEMA, migrations));
  const ownsDatabase = options.database === undefined;
  const dropOwned = async () => {
    if (ownsDatabase) await test.drop();
  };
  const topics: TopicConfig = {
    usage: uniqueName("test-usage"),
    keyChanges: uniqueName("test-key-changes"),
    payments: uniqueName("test-payments"),
  };
  // A broker that cannot be reached must not leave the test database behind.
  const bus = await (options.bus ? options.bus(topics) : Promise.resolve(new InProcessEventBus())).catch(
    async (error: unknown) => {
      await dropOwned();
      throw error;
    },
  );
  const keyChanges: KeyChanged[] = [];
  const observer = await bus.subscribe({
    topic: topics.keyChanges,
    groupId: uniqueName("test-observer"),
    fromBeginning: true,
    handler: async (message) => {
      const change = decodePayload(KEY_CHANGED_V1, decodeEnvelope(message.value));
      if (change) keyChanges.push(change);
    },
  });
  const billing = await startFixedBilling();
  const billingClient = connectBillingUsage(billing.address, {
    timeoutMs: 1_000,
    issuer: options.serviceAuth?.issuer,
  });
  const running = await startKeys(
    {
      database: test.database,
      bus,
      topics,
      logger: options.logger ?? silentLogger(),
      billing: billingClient.usage,
      catalog: fixtureCatalog(),
      byokMasterKey:
        options.byokMasterKey === null
          ? undefined
          : (options.byokMasterKey ?? randomBytes(32).toString("hex")),
      byokMasterKeyPrevious: options.byokMasterKeyPrevious,
      wallet: options.wallet,
      serviceAuth: options.serviceAuth,
      accounts: options.accounts,
    },
    { host: "127.0.0.1", httpPort: 0, grpcPort: 0 },
  ).catch(async (error: unknown) => {
    // A refused start (e.g. master keys that open nothing stored) leaves nothing running behind.
    await observer.stop();
    billingClient.close();
    await billing.stop();
    await bus.close();
    await dropOwned();
    throw error;
  });
  let accounts = 0;
  return {
    database: test.database,
    bus,
    topics,
    billing,
    running,
    keyChanges,
    request: async (method, path, requestOptions = {}) => {
      const headers: Record<string, string> = {};
      if (requestOptions.key) headers.authorization = `Bearer ${requestOptions.key}`;
      if (requestOptions.body !== undefined) headers["content-type"] = "application/json";
      const response = await fetch(`${running.httpUrl}${path}`, {
        method,
        headers,
        body: requestOptions.body === undefined ? null : JSON.stringify(requestOptions.body),
      });
      const text = await response.text();
      return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : {} };
    },
    account: (name) => createAccount(test.database, { name: name ?? `account ${++accounts}` }),
    close: async () => {
      await running.stop();
      await observer.stop();
      billingClient.close();
      await billing.stop();
      await bus.close();
      await dropOwned();
    },
  };
}

/** Polls until the condition holds; buses deliver on a later tick (or, on Kafka, a later poll). */
export async function eventually(condition: () => boolean, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
