import { readFileSync } from "node:fs";
import { OPENAPI_JSON_URL } from "@gw/openapi";
import { gatewayOpenApiDocument } from "@gw/standalone";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";

// The committed OpenAPI document (packages/openapi/openapi.json, served by the edge at /openapi.json)
// against the apps' zod schemas it is generated from, and against the OpenAPI 3.1 schema. Each app's own
// test checks that every route it registers is described (apps/*/src/openapi*.test.ts).

const committed: unknown = JSON.parse(readFileSync(OPENAPI_JSON_URL, "utf8"));

describe("the OpenAPI document", () => {
  it("is what `pnpm openapi` generates from the apps' schemas (run it after changing a route)", () => {
    // JSON round trip: the committed file is what JSON.stringify wrote (then biome formatted).
    expect(committed).toEqual(JSON.parse(JSON.stringify(gatewayOpenApiDocument())));
  });

  it("validates against the OpenAPI 3.1 schema", async () => {
    const validator = new Validator();
    const result = await validator.validate(
      structuredClone(committed) as Parameters<Validator["validate"]>[0],
    );
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("the validator refuses a document that breaks the schema (so the check above can fail)", async () => {
    // A 2.0-style body parameter: OpenAPI 3.1 allows only path, query, header and cookie.
    const broken = structuredClone(committed) as {
      paths: Record<string, Record<string, { parameters?: unknown[] }>>;
    };
    const operation = broken.paths["/api/v1/keys"]?.get;
    operation?.parameters?.push({ name: "body", in: "body", schema: { type: "object" } });
    const result = await new Validator().validate(broken as Parameters<Validator["validate"]>[0]);
    expect(result.valid).toBe(false);
  });

  it("describes every surface the issue names, with its security", () => {
    const document = gatewayOpenApiDocument();
    const paths = Object.keys(document.paths ?? {});
    for (const path of [
      "/v1/chat/completions",
      "/v1/messages",
      "/v1beta/models/{model}:generateContent",
      "/v1/models",
      "/api/v1/models/{author}/{slug}/endpoints",
      "/api/v1/keys",
      "/api/v1/credits",
      "/v1/key",
      "/api/v1/generation",
      "/api/v1/byok",
      "/v1/x402/auth",
      "/v1/messages/batches",
    ])
      expect(paths).toContain(path);
    expect(document.paths?.["/api/v1/keys"]?.post?.security).toEqual([{ managementKey: [] }]);
    expect(document.paths?.["/v1/messages"]?.post?.security).toContainEqual({ xApiKey: [] });
    expect(document.paths?.["/v1beta/models/{model}:generateContent"]?.post?.security).toContainEqual({
      googApiKey: [],
    });
  });

  it("gives every operation a unique id and each surface its own error body", () => {
    const document = gatewayOpenApiDocument();
    const ids: string[] = [];
    for (const item of Object.values(document.paths ?? {}))
      for (const operation of [item.get, item.post, item.patch, item.delete])
        if (operation?.operationId) ids.push(operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const errorRef = (path: string) =>
      JSON.stringify(document.paths?.[path]?.post?.responses?.["400"]).match(
        /#\/components\/schemas\/(\w+)/,
      )?.[1];
    expect(errorRef("/v1/chat/completions")).toBe("OpenAiError");
    expect(errorRef("/v1/messages")).toBe("AnthropicError");
    expect(errorRef("/v1beta/models/{model}:generateContent")).toBe("GeminiError");
  });
});
