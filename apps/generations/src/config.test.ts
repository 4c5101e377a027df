import { ConfigError } from "@gw/config";
import { describe, expect, it } from "vitest";
import { loadGenerationsConfig } from "./config.js";

describe("loadGenerationsConfig", () => {
  it("defaults to the documented ports and a 90-day retention", () => {
    const config = loadGenerationsConfig({});
    expect(config).toMatchObject({
      HOST: "0.0.0.0",
      HTTP_PORT: 8083,
      GRPC_PORT: 50053,
      KEYS_GRPC_ADDRESS: "127.0.0.1:50051",
      TOPIC_USAGE: "gateway.usage.v1",
      GENERATION_RETENTION_DAYS: 90,
    });
  });

  it("names the bad variable", () => {
    expect(() => loadGenerationsConfig({ GENERATION_RETENTION_DAYS: "forever" })).toThrow(ConfigError);
    expect(() => loadGenerationsConfig({ GENERATION_RETENTION_DAYS: "forever" })).toThrow(
      /GENERATION_RETENTION_DAYS/,
    );
  });
});
