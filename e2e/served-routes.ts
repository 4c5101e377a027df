import { MemoryAdmissionStore } from "@gw/admission-store";
import { PrincipalResolver } from "@gw/auth";
import { createApp as createBillingApp } from "@gw/billing";
import type { TopicConfig } from "@gw/config";
import { connectDatabase } from "@gw/db";
import { CatalogHolder, connectBillingClient, createApp as createEdgeApp, ProviderRegistry } from "@gw/edge";
import { InProcessEventBus } from "@gw/events";
import { createApp as createGenerationsApp } from "@gw/generations";
import { connectBillingUsage, createApp as createKeysApp } from "@gw/keys";
import { silentLogger } from "@gw/logger";
import { type RegisteredRoute, registeredRoutes } from "@gw/openapi";

// The GET paths each app's express router really serves, for checking probe paths. The apps are built
// with their real dependencies pointed at an address nothing listens on: building an app connects
// nothing (pg pools and gRPC channels connect on first use) and no request is made.

export type AppName = "edge" | "keys" | "billing" | "generations";

const NOWHERE = "127.0.0.1:9";
const topics: TopicConfig = { usage: "u", keyChanges: "k", payments: "p" };

function database<Tables>(schema: string) {
  return connectDatabase<Tables>({ url: `postgres://nobody@${NOWHERE}/none`, schema });
}

/** Served GET paths per app; closes every pool and channel it opened before returning. */
export async function servedGetPaths(): Promise<Record<AppName, Set<string>>> {
  const served = await servedRoutes();
  const getPaths = (app: AppName) =>
    new Set(served[app].filter((route) => route.method === "get").map((route) => route.path));
  return {
    edge: getPaths("edge"),
    keys: getPaths("keys"),
    billing: getPaths("billing"),
    generations: getPaths("generations"),
  };
}

/**
 * Every route (method and path) each app's express router really serves, read from the built apps
 * themselves (not their source): a route registered anywhere (app.ts, a mount helper, a sub-module) is
 * here. Closes every pool and channel it opened before returning.
 */
export async function servedRoutes(): Promise<Record<AppName, RegisteredRoute[]>> {
  const logger = silentLogger();
  const bus = new InProcessEventBus();
  const keysResolver = PrincipalResolver.connect(NOWHERE);
  const billingClient = connectBillingClient(NOWHERE);
  const usage = connectBillingUsage(NOWHERE);
  const databases = [database("keys"), database("billing"), database("generations")] as const;
  try {
    const edge = createEdgeApp({
      principals: keysResolver.resolver,
      billing: billingClient,
      catalog: new CatalogHolder(async () => {
        throw new Error("not loaded: only the routes are read");
      }),
      bus,
      topics,
      providers: new ProviderRegistry([]),
      controlPlane: {
        keysHttpUrl: `http://${NOWHERE}`,
        billingHttpUrl: `http://${NOWHERE}`,
        generationsHttpUrl: `http://${NOWHERE}`,
      },
      logger,
    });
    const keys = createKeysApp({ database: databases[0], bus, topics, logger, billing: usage.usage });
    const billing = createBillingApp({
      database: databases[1],
      bus,
      topics,
      logger,
      store: new MemoryAdmissionStore(),
      resolver: keysResolver.resolver,
    });
    const generations = createGenerationsApp({
      database: databases[2],
      bus,
      topics,
      logger,
      resolver: keysResolver.resolver,
    });
    return {
      edge: registeredRoutes(edge),
      keys: registeredRoutes(keys),
      billing: registeredRoutes(billing),
      generations: registeredRoutes(generations),
    };
  } finally {
    keysResolver.close();
    billingClient.close();
    usage.close();
    await Promise.all(databases.map((db) => db.close()));
  }
}
