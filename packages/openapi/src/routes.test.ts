import { describe, expect, it } from "vitest";
import { z } from "zod";
import { buildGatewayDocument } from "./document.js";
import {
  documentedRoutes,
  expressPath,
  registeredRoutes,
  undocumentedRoutes,
  unservedOperations,
} from "./routes.js";

const ok = { "200": { description: "ok" } };

describe("route coverage", () => {
  const document = buildGatewayDocument([
    {
      "/api/v1/keys/{hash}": {
        get: { responses: ok, requestParams: { path: z.object({ hash: z.string() }) } },
      },
      "/v1beta/models/{model}:generateContent": {
        post: { responses: ok, "x-express-routes": ["/v1beta/models/*rest"] },
      },
    },
  ]);

  it("spells OpenAPI path templates the express way", () => {
    expect(expressPath("/api/v1/models/{author}/{slug}/endpoints")).toBe(
      "/api/v1/models/:author/:slug/endpoints",
    );
  });

  it("lists documented routes by method, with the express routes an operation names", () => {
    expect([...documentedRoutes(document)].sort()).toEqual([
      "get /api/v1/keys/:hash",
      "post /v1beta/models/*rest",
      "post /v1beta/models/:model:generateContent",
    ]);
  });

  it("reads every method and path of a router's route layers, skipping middleware", () => {
    const router = {
      stack: [
        {},
        { route: { path: "/a", methods: { get: true } } },
        { route: { path: ["/b", "/c"], methods: { post: true, get: false } } },
      ],
    };
    expect(registeredRoutes({ router })).toEqual([
      { method: "get", path: "/a" },
      { method: "post", path: "/b" },
      { method: "post", path: "/c" },
    ]);
  });

  it("names a registered route the document lacks, and nothing else", () => {
    const routes = [
      { method: "get", path: "/api/v1/keys/:hash" },
      { method: "delete", path: "/api/v1/keys/:hash" },
      { method: "post", path: "/v1beta/models/*rest" },
    ];
    expect(undocumentedRoutes(routes, document)).toEqual(["delete /api/v1/keys/:hash"]);
  });

  it("names a documented operation no registered route serves, counting its x-express-routes", () => {
    expect(unservedOperations([{ method: "post", path: "/v1beta/models/*rest" }], document)).toEqual([
      "get /api/v1/keys/{hash}",
    ]);
    expect(unservedOperations([{ method: "get", path: "/api/v1/keys/:hash" }], document)).toEqual([
      "post /v1beta/models/{model}:generateContent",
    ]);
  });
});

describe("buildGatewayDocument", () => {
  it("refuses two fragments describing the same operation", () => {
    const fragment = { "/x": { get: { responses: ok } } };
    expect(() => buildGatewayDocument([fragment, fragment])).toThrow("get /x is described twice");
  });

  it("merges different methods of one path and declares every security scheme", () => {
    const document = buildGatewayDocument([
      { "/x": { get: { responses: ok } } },
      { "/x": { post: { responses: ok } } },
    ]);
    expect(Object.keys(document.paths?.["/x"] ?? {}).sort()).toEqual(["get", "post"]);
    expect(Object.keys(document.components?.securitySchemes ?? {}).sort()).toEqual([
      "apiKey",
      "googApiKey",
      "googKeyQuery",
      "managementKey",
      "operatorToken",
      "walletJwt",
      "xApiKey",
    ]);
  });
});
