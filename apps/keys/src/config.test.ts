import { ConfigError } from "@gw/config";
import { describe, expect, it } from "vitest";
import { loadKeysConfig } from "./config.js";

describe("loadKeysConfig", () => {
  it("defaults to the documented ports and topics", () => {
    expect(loadKeysConfig({})).toMatchObject({
      HOST: "0.0.0.0",
      HTTP_PORT: 8081,
      GRPC_PORT: 50051,
      BILLING_GRPC_ADDRESS: "127.0.0.1:50052",
      TOPIC_KEY_CHANGES: "gateway.key-changes.v1",
    });
  });

  it("names the bad variable", () => {
    expect(() => loadKeysConfig({ GRPC_PORT: "grpc" })).toThrow(ConfigError);
    expect(() => loadKeysConfig({ GRPC_PORT: "grpc" })).toThrow(/GRPC_PORT/);
  });

  it("accepts a 32-byte BYOK master key in hex or base64 and refuses anything else", () => {
    const hex = "ab".repeat(32);
    expect(loadKeysConfig({ BYOK_MASTER_KEY: hex }).BYOK_MASTER_KEY).toBe(hex);
    const base64 = Buffer.alloc(32, 7).toString("base64");
    expect(loadKeysConfig({ BYOK_MASTER_KEY: base64 }).BYOK_MASTER_KEY).toBe(base64);
    expect(loadKeysConfig({}).BYOK_MASTER_KEY).toBeUndefined();
    expect(() => loadKeysConfig({ BYOK_MASTER_KEY: "too-short" })).toThrow(/BYOK_MASTER_KEY/);
  });

  it("takes a previous BYOK master key only beside a different current one", () => {
    const current = "ab".repeat(32);
    const previous = Buffer.alloc(32, 7).toString("base64");
    expect(
      loadKeysConfig({ BYOK_MASTER_KEY: current, BYOK_MASTER_KEY_PREVIOUS: previous })
        .BYOK_MASTER_KEY_PREVIOUS,
    ).toBe(previous);
    expect(() => loadKeysConfig({ BYOK_MASTER_KEY_PREVIOUS: previous })).toThrow(
      /BYOK_MASTER_KEY_PREVIOUS: set only together with BYOK_MASTER_KEY/,
    );
    // The same 32 bytes, once in hex and once in base64.
    expect(() =>
      loadKeysConfig({
        BYOK_MASTER_KEY: current,
        BYOK_MASTER_KEY_PREVIOUS: Buffer.from(current, "hex").toString("base64"),
      }),
    ).toThrow(/must differ/);
    expect(() => loadKeysConfig({ BYOK_MASTER_KEY: current, BYOK_MASTER_KEY_PREVIOUS: "short" })).toThrow(
      /BYOK_MASTER_KEY_PREVIOUS/,
    );
  });
});
