import type { TopicConfig } from "@gw/config";
import type { Database } from "@gw/db";
import {
  decodeEnvelope,
  decodePayload,
  InProcessEventBus,
  KEY_CHANGED_V1,
  type KeyChanged,
} from "@gw/events";
import { silentLogger } from "@gw/logger";
import { migrations, SCHEMA } from "../db/index.js";
import type { KeysTables } from "../db/schema.js";
import { type CreatedAccount, createAccount } from "../operator.js";
import { type RunningKeys, startKeys } from "../start.js";
import { connectBillingUsage } from "../usage/billing.js";
import { fixtureCatalog } from "./catalog-fixture.js";
import { migratedTestDatabase } from "./database.js";
import { type FixedBilling, startFixedBilling } from "./fixed-billing.js";

export const TOPICS: TopicConfig = {
  usage: "test.usage",
  keyChanges: "test.key-changes",
  payments: "test.payments",
};

export interface HttpResult {
  status: number;
  headers: Headers;
  // Response bodies are JSON of unknown shape; tests assert on them field by field.
  body: Record<string, unknown>;
}

export interface KeysHarness {
  database: Database<KeysTables>;
  bus: InProcessEventBus;
  billing: FixedBilling;
  running: RunningKeys;
  /** Every key-change event published so far, decoded. */
  keyChanges: KeyChanged[];
  request(method: string, path: string, options?: { key?: string; body?: unknown }): Promise<HttpResult>;
  account(name?: string): Promise<CreatedAccount>;
  close(): Promise<void>;
}

/** The keys app on ephemeral ports over a fresh database, the in-process bus and a fixed billing. */
export async function startKeysHarness(): Promise<KeysHarness> {
  const test = await migratedTestDatabase<KeysTables>(SCHEMA, migrations);
  const bus = new InProcessEventBus();
  const keyChanges: KeyChanged[] = [];
  const observer = await bus.subscribe({
    topic: TOPICS.keyChanges,
    groupId: "test-observer",
    handler: async (message) => {
      const change = decodePayload(KEY_CHANGED_V1, decodeEnvelope(message.value));
      if (change) keyChanges.push(change);
    },
  });
  const billing = await startFixedBilling();
  const billingClient = connectBillingUsage(billing.address, { timeoutMs: 1_000 });
  const running = await startKeys(
    {
      database: test.database,
      bus,
      topics: TOPICS,
      logger: silentLogger(),
      billing: billingClient.usage,
      catalog: fixtureCatalog(),
    },
    { host: "127.0.0.1", httpPort: 0, grpcPort: 0 },
  );
  let accounts = 0;
  return {
    database: test.database,
    bus,
    billing,
    running,
    keyChanges,
    request: async (method, path, options = {}) => {
      const headers: Record<string, string> = {};
      if (options.key) headers.authorization = `Bearer ${options.key}`;
      if (options.body !== undefined) headers["content-type"] = "application/json";
      const response = await fetch(`${running.httpUrl}${path}`, {
        method,
        headers,
        body: options.body === undefined ? null : JSON.stringify(options.body),
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
      await test.drop();
    },
  };
}

/** Polls until the condition holds; the in-process bus delivers on a later tick. */
export async function eventually(condition: () => boolean, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
