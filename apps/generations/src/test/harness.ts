import { PrincipalResolver } from "@gw/auth";
import type { TopicConfig } from "@gw/config";
import type { Database } from "@gw/db";
import { type EventBus, InProcessEventBus } from "@gw/events";
import { silentLogger } from "@gw/logger";
import type { ServiceAuth } from "@gw/rpc";
import { migratedTestDatabase, uniqueName } from "@gw/testing";
import { migrations, SCHEMA } from "../db/index.js";
import type { GenerationsTables } from "../db/schema.js";
import { type RunningGenerations, startGenerations } from "../start.js";
import { type FixedKeys, startFixedKeys } from "./fixed-keys.js";

export interface HttpResult {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

export interface GenerationsHarness {
  database: Database<GenerationsTables>;
  bus: EventBus;
  topics: TopicConfig;
  keys: FixedKeys;
  running: RunningGenerations;
  get(path: string, key?: string): Promise<HttpResult>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  /** The bus to run on; default the in-process bus. The harness closes it. */
  bus?: (topics: TopicConfig) => Promise<EventBus>;
  /** Service authentication on the app's ports; default off (the tests of other behaviour call it bare). */
  serviceAuth?: ServiceAuth;
}

/** The generations app on ephemeral ports over a fresh database, an event bus and a fixed KeyService. */
export async function startGenerationsHarness(options: HarnessOptions = {}): Promise<GenerationsHarness> {
  const test = await migratedTestDatabase<GenerationsTables>(SCHEMA, migrations);
  const topics: TopicConfig = {
    usage: uniqueName("test-usage"),
    keyChanges: uniqueName("test-key-changes"),
    payments: uniqueName("test-payments"),
  };
  // A broker that cannot be reached must not leave the test database behind.
  const bus = await (options.bus ? options.bus(topics) : Promise.resolve(new InProcessEventBus())).catch(
    async (error: unknown) => {
      await test.drop();
      throw error;
    },
  );
  const keys = await startFixedKeys();
  const connection = PrincipalResolver.connect(keys.address);
  const running = await startGenerations(
    {
      database: test.database,
      bus,
      topics,
      logger: silentLogger(),
      resolver: connection.resolver,
      serviceAuth: options.serviceAuth,
    },
    { host: "127.0.0.1", httpPort: 0, grpcPort: 0 },
  );
  return {
    database: test.database,
    bus,
    topics,
    keys,
    running,
    get: async (path, key) => {
      const response = await fetch(`${running.httpUrl}${path}`, {
        headers: key ? { authorization: `Bearer ${key}` } : {},
      });
      const text = await response.text();
      return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : {} };
    },
    close: async () => {
      await running.stop();
      connection.close();
      await keys.stop();
      await bus.close();
      await test.drop();
    },
  };
}

/** Polls until the condition holds; buses deliver on a later tick (or, on Kafka, a later poll). */
export async function eventually(condition: () => Promise<boolean>, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
