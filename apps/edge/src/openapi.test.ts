import { PROVIDERS } from "@gw/catalog";
import { InProcessEventBus } from "@gw/events";
import { listen } from "@gw/http";
import { silentLogger } from "@gw/logger";
import {
  buildGatewayDocument,
  readOpenApiJson,
  registeredRoutes,
  undocumentedRoutes,
  unservedOperations,
} from "@gw/openapi";
import { describe, expect, it } from "vitest";
import { createApp } from "./app.js";
import { CatalogHolder } from "./catalog/catalog-holder.js";
import { edgeOpenApiPaths } from "./openapi.js";
import { ProviderRegistry } from "./providers/registry.js";
import { RecordingBilling } from "./test/billing.js";
import { resolverFor } from "./test/principals.js";

// Every route the edge's express app registers is in the OpenAPI document, and the document names no
// route the app does not serve. A route added to app.ts without a document entry fails here.

function edgeApp() {
  return createApp({
    principals: resolverFor([]),
    billing: new RecordingBilling(),
    catalog: new CatalogHolder(async () => {
      throw new Error("not needed: only the routes are read");
    }),
    bus: new InProcessEventBus(),
    topics: { usage: "u", keyChanges: "k", payments: "p" },
    providers: new ProviderRegistry([]),
    controlPlane: {
      keysHttpUrl: "http://127.0.0.1:9",
      billingHttpUrl: "http://127.0.0.1:9",
      generationsHttpUrl: "http://127.0.0.1:9",
    },
    logger: silentLogger(),
  });
}

function edgeRoutes() {
  const app = edgeApp();
  // The pass-through is registered once per catalogue provider id; the document has one templated entry.
  const providers = new Set(PROVIDERS.map((provider) => provider.id));
  return registeredRoutes(app).map((route) => {
    const provider = /^\/([^/]+)\/\*path$/.exec(route.path)?.[1];
    return provider && providers.has(provider) ? { ...route, path: "/{provider}/*path" } : route;
  });
}

describe("the edge's routes in the OpenAPI document", () => {
  const routes = edgeRoutes();
  const document = buildGatewayDocument([edgeOpenApiPaths]);

  it("reads the registered routes from the app (inference, batches, models, proxy, operations)", () => {
    const names = routes.map((route) => `${route.method} ${route.path}`);
    expect(names).toContain("post /v1/chat/completions");
    expect(names).toContain("get /v1/messages/batches/:id/results");
    expect(names).toContain("post /{provider}/*path");
    expect(names).toContain("get /openapi.json");
  });

  it("documents every route the app registers", () => {
    expect(undocumentedRoutes(routes, document)).toEqual([]);
  });

  it("documents no route the app does not register", () => {
    expect(unservedOperations(routes, document)).toEqual([]);
  });
});

describe("GET /openapi.json", () => {
  it("serves the committed document as JSON, without a credential", async () => {
    const server = await listen(edgeApp(), "127.0.0.1", 0);
    try {
      const response = await fetch(`${server.url}/openapi.json`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      expect(await response.text()).toBe(readOpenApiJson());
    } finally {
      await server.close();
    }
  });
});
