import { InProcessEventBus } from "@gw/events";
import { silentLogger } from "@gw/logger";
import { buildGatewayDocument, registeredRoutes, undocumentedRoutes, unservedOperations } from "@gw/openapi";
import { type MigratedTestDatabase, migratedTestDatabase } from "@gw/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "./app.js";
import { migrations, SCHEMA } from "./db/index.js";
import type { KeysTables } from "./db/schema.js";
import { connectBillingUsage } from "./identity/usage/billing.js";
import { keysOpenApiPaths } from "./openapi/index.js";

// Every route the keys app registers is in the OpenAPI document (as the edge forwards it), and the
// document names no keys route the app does not serve. Operational routes on the app's own port are
// not part of the public document.
const INTERNAL = new Set(["get /healthz", "get /readyz"]);

let test: MigratedTestDatabase<KeysTables>;
let routes: { method: string; path: string }[];

beforeAll(async () => {
  test = await migratedTestDatabase<KeysTables>(SCHEMA, migrations);
  // Never called: the app is built to read its router, not served.
  const billing = connectBillingUsage("127.0.0.1:9");
  const app = createApp({
    database: test.database,
    bus: new InProcessEventBus(),
    topics: { usage: "u", keyChanges: "k", payments: "p" },
    logger: silentLogger(),
    billing: billing.usage,
  });
  billing.close();
  routes = registeredRoutes(app).filter((route) => !INTERNAL.has(`${route.method} ${route.path}`));
});

afterAll(async () => {
  await test?.drop();
});

describe("the keys app's routes in the OpenAPI document", () => {
  const document = buildGatewayDocument([keysOpenApiPaths]);

  it("reads the registered routes from the app", () => {
    expect(routes.map((route) => `${route.method} ${route.path}`)).toContain("patch /api/v1/byok/:id");
  });

  it("documents every route the app registers", () => {
    expect(undocumentedRoutes(routes, document)).toEqual([]);
  });

  it("documents no route the app does not register", () => {
    expect(unservedOperations(routes, document)).toEqual([]);
  });
});
