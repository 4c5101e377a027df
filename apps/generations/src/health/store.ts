import type { Kysely } from "kysely";
import type { EndpointSample } from "./samples.js";
import type { HealthTables } from "./tables.js";

export const WINDOW_MS = 30 * 60_000;
const MINUTE_MS = 60_000;

/** One usage event's samples, at the minute it ended (written with its record: health/write.ts). */
export interface EventSamples {
  generationId: string;
  at: Date;
  samples: EndpointSample[];
}

export function minuteOf(at: Date): Date {
  return new Date(Math.floor(at.getTime() / MINUTE_MS) * MINUTE_MS);
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

/** Drops buckets that left the window. */
export async function sweepWindow(db: Kysely<HealthTables>, now: number): Promise<void> {
  const before = new Date(now - WINDOW_MS - MINUTE_MS);
  await db.deleteFrom("endpoint_health_minutes").where("minute", "<", before).execute();
  await db.deleteFrom("endpoint_health_histograms").where("minute", "<", before).execute();
}
