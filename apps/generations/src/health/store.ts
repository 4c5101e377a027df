import { type Kysely, sql } from "kysely";
import type { Metric } from "./histogram.js";
import type { EndpointSample } from "./samples.js";
import type { HealthTables } from "./tables.js";

export const WINDOW_MS = 30 * 60_000;
const MINUTE_MS = 60_000;

/** One usage event's samples, at the minute it ended. */
export interface EventSamples {
  generationId: string;
  at: Date;
  samples: EndpointSample[];
}

export function minuteOf(at: Date): Date {
  return new Date(Math.floor(at.getTime() / MINUTE_MS) * MINUTE_MS);
}

/**
 * Adds a batch of events to the minute buckets in one transaction. An event already counted (a
 * redelivery) adds nothing; counts are summed per row in memory first, since one upsert statement may
 * not touch a row twice.
 */
export async function recordSamples(db: Kysely<HealthTables>, events: EventSamples[]): Promise<number> {
  // The same event twice in one batch (a producer retry) is one event: the insert returns its id once.
  const unique = [...new Map(events.map((event) => [event.generationId, event])).values()];
  if (unique.length === 0) return 0;
  return db.transaction().execute(async (trx) => {
    const fresh = await trx
      .insertInto("endpoint_health_events")
      .values(unique.map((event) => ({ generation_id: event.generationId, minute: minuteOf(event.at) })))
      .onConflict((conflict) => conflict.column("generation_id").doNothing())
      .returning("generation_id")
      .execute();
    const counted = new Set(fresh.map((row) => row.generation_id));
    const chosen = unique.filter((event) => counted.has(event.generationId));
    await upsertMinutes(trx, chosen);
    await upsertHistograms(trx, chosen);
    return chosen.length;
  });
}

async function upsertMinutes(db: Kysely<HealthTables>, events: EventSamples[]): Promise<void> {
  const rows = new Map<
    string,
    { model: string; provider_id: string; minute: Date; attempts: number; failures: number }
  >();
  for (const event of events) {
    const minute = minuteOf(event.at);
    for (const sample of event.samples) {
      const key = `${sample.model}\n${sample.provider}\n${minute.getTime()}`;
      const row = rows.get(key) ?? {
        model: sample.model,
        provider_id: sample.provider,
        minute,
        attempts: 0,
        failures: 0,
      };
      row.attempts += sample.attempts;
      row.failures += sample.failures;
      rows.set(key, row);
    }
  }
  if (rows.size === 0) return;
  await db
    .insertInto("endpoint_health_minutes")
    .values([...rows.values()])
    .onConflict((conflict) =>
      conflict.columns(["model", "provider_id", "minute"]).doUpdateSet({
        attempts: sql`endpoint_health_minutes.attempts + excluded.attempts`,
        failures: sql`endpoint_health_minutes.failures + excluded.failures`,
      }),
    )
    .execute();
}

async function upsertHistograms(db: Kysely<HealthTables>, events: EventSamples[]): Promise<void> {
  type Row = {
    model: string;
    provider_id: string;
    minute: Date;
    metric: Metric;
    bucket: number;
    count: number;
  };
  const rows = new Map<string, Row>();
  for (const event of events) {
    const minute = minuteOf(event.at);
    for (const sample of event.samples) {
      for (const { metric, bucket, count } of sample.buckets) {
        const key = `${sample.model}\n${sample.provider}\n${minute.getTime()}\n${metric}\n${bucket}`;
        const row = rows.get(key) ?? {
          model: sample.model,
          provider_id: sample.provider,
          minute,
          metric,
          bucket,
          count: 0,
        };
        row.count += count;
        rows.set(key, row);
      }
    }
  }
  if (rows.size === 0) return;
  await db
    .insertInto("endpoint_health_histograms")
    .values([...rows.values()])
    .onConflict((conflict) =>
      conflict
        .columns(["model", "provider_id", "minute", "metric", "bucket"])
        .doUpdateSet({ count: sql`endpoint_health_histograms.count + excluded.count` }),
    )
    .execute();
}

export interface WindowRows {
  minutes: { model: string; provider_id: string; minute: Date; attempts: number; failures: number }[];
  histograms: { model: string; provider_id: string; metric: string; bucket: number; count: number }[];
}

/** Every bucket of the last 30 minutes (the current minute included). */
export async function readWindow(db: Kysely<HealthTables>, now: number): Promise<WindowRows> {
  const since = new Date(now - WINDOW_MS);
  const [minutes, histograms] = await Promise.all([
    db
      .selectFrom("endpoint_health_minutes")
      .select(["model", "provider_id", "minute", "attempts", "failures"])
      .where("minute", ">", since)
      .execute(),
    db
      .selectFrom("endpoint_health_histograms")
      .select(["model", "provider_id", "metric", "bucket"])
      .select((eb) => eb.fn.sum<string>("count").as("count"))
      .where("minute", ">", since)
      .groupBy(["model", "provider_id", "metric", "bucket"])
      .execute(),
  ]);
  return { minutes, histograms: histograms.map((row) => ({ ...row, count: Number(row.count) })) };
}

/** Drops buckets (and remembered event ids) that left the window. */
export async function sweepWindow(db: Kysely<HealthTables>, now: number): Promise<void> {
  const before = new Date(now - WINDOW_MS - MINUTE_MS);
  await db.deleteFrom("endpoint_health_minutes").where("minute", "<", before).execute();
  await db.deleteFrom("endpoint_health_histograms").where("minute", "<", before).execute();
  await db.deleteFrom("endpoint_health_events").where("minute", "<", before).execute();
}
