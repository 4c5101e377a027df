import pg from "pg";
import { describe, expect, it } from "vitest";
import { createTestDatabase } from "./database.js";
import { describeWith, kafkaBrokers, serviceUrl, testServices } from "./helpers.js";
import { kafkaAnswers, postgresAnswers, redisAnswers } from "./probes.js";
import { SERVICE_NAMES } from "./services.js";

describe("the services the global setup resolved", () => {
  it("are all reported, each available or with a reason", () => {
    const services = testServices();
    // Every service is named: an empty map would make the loop below vacuous.
    expect(Object.keys(services).sort()).toEqual([...SERVICE_NAMES].sort());
    for (const state of Object.values(services)) {
      if (state.status === "available") expect(state.url).not.toBe("");
      else expect(state.reason).not.toBe("");
    }
  });
});

describeWith(["postgres"], "createTestDatabase", () => {
  it("creates a fresh database that drop() removes, open connections and all", async () => {
    const database = await createTestDatabase({ prefix: "testing" });
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    client.on("error", () => {});
    await client.query("create table probe (id int)");
    const { rows } = await client.query<{ name: string }>("select current_database() as name");
    expect(rows[0]?.name).toBe(database.name);

    await database.drop();
    expect(await postgresAnswers(database.url)).toBe(false);
    await client.end().catch(() => {});
  });
});

describeWith(["redis"], "the resolved Redis", () => {
  it("answers PING", async () => {
    expect(await redisAnswers(serviceUrl("redis"))).toBe(true);
  });
});

describeWith(["kafka"], "the resolved Kafka", () => {
  it("answers a metadata request", async () => {
    expect(await kafkaAnswers(kafkaBrokers().join(","))).toBe(true);
  });
});
