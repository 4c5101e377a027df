import { describeWith, type MigratedTestDatabase, migratedTestDatabase } from "@gw/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { migrations, SCHEMA } from "../db/index.js";
import type { GenerationsTables } from "../db/schema.js";
import type { EventSamples } from "../health/store.js";
import type { HealthTables } from "../health/tables.js";
import { rowFromUsage } from "../records/usage-row.js";
import { usageEvent } from "../test/usage-events.js";
import { recordUsage } from "./record-usage.js";

describeWith(["postgres"], "recordUsage: records with their rollup and health samples", () => {
  let test: MigratedTestDatabase<GenerationsTables>;

  beforeAll(async () => {
    test = await migratedTestDatabase<GenerationsTables>(SCHEMA, migrations);
  });

  afterAll(async () => {
    await test?.drop();
  });

  const event = (accountId: string) => {
    const usage = usageEvent({ accountId });
    const envelope = {
      eventId: usage.generationId,
      eventType: "usage.recorded",
      eventVersion: 1,
      accountId,
      payload: Buffer.alloc(0),
    };
    const samples: EventSamples = {
      generationId: usage.generationId,
      at: new Date(),
      samples: [
        {
          model: "m/x",
          provider: "p",
          attempts: 2,
          failures: 1,
          buckets: [{ metric: "latency", bucket: 3, count: 1 }],
        },
      ],
    };
    return { row: rowFromUsage(envelope, usage), samples };
  };

  const figures = async () => {
    const health = test.database.db.withTables<HealthTables>();
    const minutes = await health
      .selectFrom("endpoint_health_minutes")
      .select(["attempts", "failures"])
      .execute();
    // The non-empty histogram buckets (here the one latency bucket the samples fall in).
    const counts = await health.selectFrom("endpoint_health_minutes").select(["latency_counts"]).execute();
    const buckets = counts.flatMap((row) =>
      row.latency_counts.filter((count) => count > 0).map((count) => ({ count })),
    );
    const activity = await test.database.db.selectFrom("activity_daily").select(["requests"]).execute();
    return { minutes, buckets, activity };
  };

  it("a redelivery in a later batch inserts no record and adds to no figure", async () => {
    const first = event("acct_once");
    expect(await recordUsage(test.database.pool, [first.row], [first.samples])).toBe(1);
    const once = await figures();
    expect(once).toEqual({
      minutes: [{ attempts: 2, failures: 1 }],
      buckets: [{ count: 1 }],
      activity: [{ requests: 1n }],
    });
    const second = event("acct_once");
    // The first event again (a redelivery), beside a new one: only the new one counts.
    expect(
      await recordUsage(test.database.pool, [first.row, second.row], [first.samples, second.samples]),
    ).toBe(1);
    expect(await figures()).toEqual({
      minutes: [{ attempts: 4, failures: 2 }],
      buckets: [{ count: 2 }],
      activity: [{ requests: 2n }],
    });
    expect(await recordUsage(test.database.pool, [], [])).toBe(0);
  });

  it("stores the media counts and costs the event carries", async () => {
    const usage = {
      ...usageEvent({ accountId: "acct_media" }),
      audioTokens: 10,
      imageTokens: 258,
      documentTokens: 0,
      completionAudioTokens: 2,
      audioCostPico: 400_000_000n,
      imageCostPico: 1_000_000_000n,
      webSearchCostPico: 20_000_000_000n,
    };
    const envelope = {
      eventId: usage.generationId,
      eventType: "usage.recorded",
      eventVersion: 1,
      accountId: "acct_media",
      payload: Buffer.alloc(0),
    };
    expect(await recordUsage(test.database.pool, [rowFromUsage(envelope, usage)], [])).toBe(1);
    const stored = await test.database.db
      .selectFrom("generations")
      .select([
        "audio_tokens",
        "image_tokens",
        "completion_audio_tokens",
        "audio_cost",
        "image_cost",
        "web_search_cost",
      ])
      .where("id", "=", usage.generationId)
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ audio_tokens: 10, image_tokens: 258, completion_audio_tokens: 2 });
    expect(Number(stored.audio_cost)).toBe(0.0004);
    expect(Number(stored.image_cost)).toBe(0.001);
    expect(Number(stored.web_search_cost)).toBe(0.02);
  });
});
