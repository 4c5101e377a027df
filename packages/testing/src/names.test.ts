import { describe, expect, it } from "vitest";
import { missingServices } from "./helpers.js";
import { uniqueName } from "./names.js";
import type { ResolvedServices } from "./services.js";

describe("uniqueName", () => {
  it("is unique and safe for topics, groups, key prefixes and SQL identifiers", () => {
    const names = new Set(Array.from({ length: 1000 }, () => uniqueName("Usage Topic.v1")));
    expect(names.size).toBe(1000);
    for (const name of names) expect(name).toMatch(/^usage-topic-v1-[a-z0-9]+-[0-9a-f]{8}$/);
    expect(uniqueName("gw billing", "_")).toMatch(/^gw_billing_[a-z0-9]+_[0-9a-f]{8}$/);
    expect(uniqueName("***")).toMatch(/^test-/);
  });
});

describe("missingServices", () => {
  const services: ResolvedServices = {
    postgres: { status: "available", url: "postgres://x", source: "env", detail: "env" },
    redis: { status: "unavailable", reason: "nothing answers" },
    kafka: { status: "unavailable", reason: "java is not installed" },
  };

  it("names each missing service with its reason", () => {
    expect(missingServices(["postgres"], services)).toBeUndefined();
    expect(missingServices(["postgres", "redis", "kafka"], services)).toBe(
      "redis unavailable (nothing answers); kafka unavailable (java is not installed)",
    );
  });
});
