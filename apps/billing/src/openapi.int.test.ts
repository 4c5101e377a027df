import { MemoryAdmissionStore } from "@gw/admission-store";
import { PrincipalResolver } from "@gw/auth";
import { InProcessEventBus } from "@gw/events";
import { silentLogger } from "@gw/logger";
import { buildGatewayDocument, registeredRoutes, undocumentedRoutes, unservedOperations } from "@gw/openapi";
import { type MigratedTestDatabase, migratedTestDatabase } from "@gw/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "./app.js";
import { type BillingTables, migrations, SCHEMA } from "./db/index.js";
import { billingOpenApiPaths } from "./openapi.js";

// Every route the billing app registers is in the OpenAPI document (as the edge forwards it), and the
// document names no billing route the app does not serve. /healthz and /readyz are the app's own port's probes.
const INTERNAL = new Set(["get /healthz", "get /readyz"]);

let test: MigratedTestDatabase<BillingTables>;
let routes: { method: string; path: string }[];

beforeAll(async () => {
  test = await migratedTestDatabase<BillingTables>(SCHEMA, migrations);
  // Never called: the app is built to read its router, not served.
  const keys = PrincipalResolver.connect("127.0.0.1:9");
  const app = createApp({
    database: test.database,
    bus: new InProcessEventBus(),
    topics: { usage: "u", keyChanges: "k", payments: "p" },
    logger: silentLogger(),
    store: new MemoryAdmissionStore(),
    resolver: keys.resolver,
  });
  keys.close();
  routes = registeredRoutes(app).filter((route) => !INTERNAL.has(`${route.method} ${route.path}`));
});

afterAll(async () => {
  await test?.drop();
});

describe("the billing app's routes in the OpenAPI document", () => {
  const document = buildGatewayDocument([billingOpenApiPaths]);

  it("reads the registered routes from the app", () => {
    expect(routes).toEqual([
      { method: "get", path: "/api/v1/credits" },
      { method: "get", path: "/api/v1/credits/transactions" },
    ]);
  });

  it("documents every route the app registers", () => {
    expect(undocumentedRoutes(routes, document)).toEqual([]);
  });

  it("documents no route the app does not register", () => {
    expect(unservedOperations(routes, document)).toEqual([]);
  });
});
