import { describe, expect, it } from "vitest";
import { ConfigError, fragments, loadConfig } from "./index.js";

describe("loadConfig", () => {
  it("parses and defaults", () => {
    const config = loadConfig(
      { ...fragments.port("PORT", 8080), ...fragments.kafkaBrokers },
      { KAFKA_BROKERS: "a:1, b:2" },
    );
    expect(config.PORT).toBe(8080);
    expect(config.KAFKA_BROKERS).toEqual(["a:1", "b:2"]);
  });

  it("names the bad variable", () => {
    expect(() => loadConfig(fragments.port("PORT", 8080), { PORT: "eighty" })).toThrow(ConfigError);
    expect(() => loadConfig(fragments.port("PORT", 8080), { PORT: "eighty" })).toThrow(/PORT/);
  });
});

describe("empty variables", () => {
  it("treats an empty variable as unset", () => {
    const config = loadConfig(
      { ...fragments.databaseUrl, ...fragments.port("PORT", 8080) },
      { DATABASE_URL: "", PORT: "" },
    );
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.PORT).toBe(8080);
  });
});
