import { PrincipalResolver } from "@gw/auth";
import type { TopicConfig } from "@gw/config";
import type { Database } from "@gw/db";
import { InProcessEventBus } from "@gw/events";
import { silentLogger } from "@gw/logger";
import { migrations, SCHEMA } from "../db/index.js";
import type { GenerationsTables } from "../db/schema.js";
import { type RunningGenerations, startGenerations } from "../start.js";
import { migratedTestDatabase } from "./database.js";
import { type FixedKeys, startFixedKeys } from "./fixed-keys.js";

export const TOPICS: TopicConfig = {
  usage: "test.usage",
  keyChanges: "test.key-changes",
  payments: "test.payments",
};

export interface HttpResult {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

export interface GenerationsHarness {
  database: Database<GenerationsTables>;
  bus: InProcessEventBus;
  keys: FixedKeys;
  running: RunningGenerations;
  get(path: string, key?: string): Promise<HttpResult>;
  close(): Promise<void>;
}

/** The generations app on ephemeral ports over a fresh database, the in-process bus and a fixed KeyService. */
export async function startGenerationsHarness(): Promise<GenerationsHarness> {
  const test = await migratedTestDatabase<GenerationsTables>(SCHEMA, migrations);
  const bus = new InProcessEventBus();
  const keys = await startFixedKeys();
  const connection = PrincipalResolver.connect(keys.address);
  const running = await startGenerations(
    { database: test.database, bus, topics: TOPICS, logger: silentLogger(), resolver: connection.resolver },
    { host: "127.0.0.1", httpPort: 0, grpcPort: 0 },
  );
  return {
    database: test.database,
    bus,
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

/** Polls until the condition holds; the bus delivers on a later tick. */
export async function eventually(condition: () => Promise<boolean>, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
