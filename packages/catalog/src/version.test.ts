import { describe, expect, it } from "vitest";
import { CATALOG, canonicalJson, catalogVersion, MODELS } from "./index.js";

describe("catalogVersion", () => {
  it("is stable across calls and equal for equal content", () => {
    const version = catalogVersion();
    expect(version).toMatch(/^[0-9a-f]{32}$/);
    expect(catalogVersion()).toBe(version);
    const copy = structuredClone({ providers: [...CATALOG.providers], models: [...CATALOG.models] });
    expect(catalogVersion(copy)).toBe(version);
  });

  it("changes when a price changes", () => {
    const [first, ...rest] = MODELS;
    if (!first) throw new Error("catalogue is empty");
    const endpoints = first.endpoints.map((e) => ({
      ...e,
      pricing: { ...e.pricing, promptPico: e.pricing.promptPico + 1n },
    }));
    const changed = { providers: CATALOG.providers, models: [{ ...first, endpoints }, ...rest] };
    expect(catalogVersion(changed)).not.toBe(catalogVersion());
  });

  it("ignores object key order", () => {
    expect(canonicalJson({ b: 1n, a: [1, "x", null] })).toBe(canonicalJson({ a: [1, "x", null], b: 1n }));
    expect(canonicalJson({ a: 1n })).toBe('{"a":"1n"}');
  });
});
