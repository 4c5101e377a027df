import { GetSnapshotResponse } from "@gw/proto/catalog/v1/catalog";
import { describe, expect, it } from "vitest";
import { CATALOG, catalogVersion, fromCatalogSnapshot, indexCatalog, toCatalogSnapshot } from "./index.js";

describe("toCatalogSnapshot", () => {
  it("maps every model, endpoint and price onto the proto", () => {
    const snapshot = toCatalogSnapshot();
    expect(snapshot.version).toBe(catalogVersion());
    expect(snapshot.notModified).toBe(false);
    expect(snapshot.providers).toHaveLength(CATALOG.providers.length);
    expect(snapshot.providers.find((p) => p.id === "demo")).toEqual({
      id: "demo",
      name: "Built-in demo provider (not a real model)",
      apiFormat: "openai",
      isDemo: true,
    });
    const mini = snapshot.models.find((m) => m.id === "openai/gpt-4o-mini");
    expect(mini?.endpoints[0]?.pricing?.promptPico).toBe(150_000n);
    expect(mini?.endpoints[0]?.quantization).toBe("");
    expect(mini?.createdUnix).toBe(1721172741n);
  });

  it("answers not_modified without data when the caller holds the current version", () => {
    const snapshot = toCatalogSnapshot({ knownVersion: catalogVersion() });
    expect(snapshot).toEqual({ version: catalogVersion(), notModified: true, providers: [], models: [] });
    expect(toCatalogSnapshot({ knownVersion: "stale" }).notModified).toBe(false);
  });

  it("survives protobuf encoding and rebuilds the same catalogue", () => {
    const wire = GetSnapshotResponse.encode(toCatalogSnapshot()).finish();
    const decoded = GetSnapshotResponse.decode(wire);
    const rebuilt = fromCatalogSnapshot(decoded);
    expect(catalogVersion(rebuilt)).toBe(catalogVersion());
    expect(indexCatalog(rebuilt).findEndpoint("openai/gpt-4o-mini", "openai")?.pricing.completionPico).toBe(
      600_000n,
    );
  });
});
