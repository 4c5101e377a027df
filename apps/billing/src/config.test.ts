import { ConfigError } from "@gw/config";
import { describe, expect, it } from "vitest";
import { loadBillingConfig } from "./config.js";

describe("loadBillingConfig", () => {
  it("applies the documented defaults", () => {
    const config = loadBillingConfig({});
    expect(config).toMatchObject({
      HOST: "0.0.0.0",
      HTTP_PORT: 8082,
      GRPC_PORT: 50052,
      KEYS_GRPC_ADDRESS: "127.0.0.1:50051",
      HOLD_TTL_MS: 300_000,
      LEASE_USE_MS: 30_000,
      ADMISSION_FAIL_OPEN: false,
      TOPIC_USAGE: "gateway.usage.v1",
      REDIS_KEY_PREFIX: "gw:billing:",
    });
    expect(config.REDIS_URL).toBeUndefined();
  });

  it("reads the fail-open flag strictly", () => {
    expect(loadBillingConfig({ ADMISSION_FAIL_OPEN: "true" }).ADMISSION_FAIL_OPEN).toBe(true);
    expect(() => loadBillingConfig({ ADMISSION_FAIL_OPEN: "yes" })).toThrow(/ADMISSION_FAIL_OPEN/);
  });

  it("names the bad variable", () => {
    const attempt = () => loadBillingConfig({ GRPC_PORT: "70000", REDIS_URL: "not a url" });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/GRPC_PORT/);
    expect(attempt).toThrow(/REDIS_URL/);
    expect(() => loadBillingConfig({ HOLD_TTL_MS: "10" })).toThrow(/HOLD_TTL_MS/);
    // A lease hold must outlast the 60 s in which the edge starts no more requests under it.
    expect(() => loadBillingConfig({ LEASE_TTL_MS: "60000" })).toThrow(/LEASE_TTL_MS/);
    expect(() => loadBillingConfig({ REDIS_KEY_PREFIX: "a{b}" })).toThrow(/REDIS_KEY_PREFIX/);
  });
});
