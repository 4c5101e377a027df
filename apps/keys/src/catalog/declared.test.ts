import { ConfigError } from "@gw/config";
import { describe, expect, it } from "vitest";
import { loadKeysConfig } from "../config.js";
import { bundledCatalog, contentVersion } from "./content.js";
import { cloudDeclarations, withCloudDeclarations } from "./declared.js";
import { applyOverlay, emptyOverlay, endpointKey } from "./overlay.js";

const BASE = { DATABASE_URL: "postgres://u@127.0.0.1:5432/db" };

function zdrEndpoints(content: ReturnType<typeof bundledCatalog>, providerId: string): string[] {
  return content.models.flatMap((model) =>
    model.endpoints.filter((e) => e.providerId === providerId && e.isZdr).map(() => model.id),
  );
}

describe("the operator's cloud zero-data-retention declarations", () => {
  it("are off by default: the seed is served as it is, with its own version", () => {
    const seed = bundledCatalog();
    const declared = withCloudDeclarations(seed, cloudDeclarations(loadKeysConfig(BASE)));
    expect(declared).toBe(seed);
    expect(zdrEndpoints(seed, "google-vertex")).toEqual([]);
    expect(zdrEndpoints(seed, "azure")).toEqual([]);
  });

  it("VERTEX_ZERO_DATA_RETENTION=true makes every Vertex endpoint ZDR; the Azure map names deployments one by one", () => {
    const seed = bundledCatalog();
    const config = loadKeysConfig({
      ...BASE,
      VERTEX_ZERO_DATA_RETENTION: "true",
      AZURE_OPENAI_DEPLOYMENTS: JSON.stringify({
        "gpt-4o": { deployment: "prod-4o", zero_data_retention: true },
        "gpt-4.1": "prod-41",
      }),
    });
    const declared = withCloudDeclarations(seed, cloudDeclarations(config));
    const vertex = seed.models.filter((m) => m.endpoints.some((e) => e.providerId === "google-vertex"));
    expect(vertex.length).toBeGreaterThan(3);
    expect(zdrEndpoints(declared, "google-vertex")).toEqual(vertex.map((m) => m.id));
    expect(zdrEndpoints(declared, "azure")).toEqual(["openai/gpt-4o"]);
    // Nothing else moved: the other providers' endpoints are the seed's.
    const others = (content: typeof seed) =>
      content.models.flatMap((m) =>
        m.endpoints.filter((e) => e.providerId !== "google-vertex" && e.providerId !== "azure"),
      );
    expect(others(declared)).toEqual(others(seed));
    // A new version, so every edge takes the declared catalogue.
    expect(declared.version).toBeUndefined();
    expect(contentVersion(declared)).not.toBe(contentVersion(seed));
  });

  it("refuses a bad value at start, naming the variable", () => {
    const bad = (env: Record<string, string>) => () => loadKeysConfig({ ...BASE, ...env });
    expect(bad({ VERTEX_ZERO_DATA_RETENTION: "yes" })).toThrow(
      /VERTEX_ZERO_DATA_RETENTION: expected true or false/,
    );
    expect(bad({ AZURE_OPENAI_DEPLOYMENTS: '{"gpt-4o":{"zero_data_retention":1}}' })).toThrow(
      'AZURE_OPENAI_DEPLOYMENTS: "gpt-4o" zero_data_retention must be true or false',
    );
    expect(bad({ AZURE_OPENAI_DEPLOYMENTS: "not json" })).toThrow(ConfigError);
  });

  it("lie under the operator layer: an override of is_zdr still wins", () => {
    const declared = withCloudDeclarations(
      bundledCatalog(),
      cloudDeclarations(loadKeysConfig({ ...BASE, VERTEX_ZERO_DATA_RETENTION: "true" })),
    );
    const overlay = emptyOverlay();
    overlay.endpoints.set(endpointKey("google/gemini-2.5-pro", "google-vertex"), { isZdr: false });
    const served = applyOverlay(declared, overlay);
    expect(zdrEndpoints(served, "google-vertex")).not.toContain("google/gemini-2.5-pro");
    expect(zdrEndpoints(served, "google-vertex")).toContain("google/gemini-2.5-flash");
  });
});
