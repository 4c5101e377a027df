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

/** Every bucket of the last 30 minutes (the current minute included), histograms summed over them. */
export async function readWindow(db: Kysely<HealthTables>, now: number): Promise<WindowRows> {
  const since = new Date(now - WINDOW_MS);
  const rows = await db
    .selectFrom("endpoint_health_minutes")
    .select(["model", "provider_id", "minute", "attempts", "failures", "latency_counts", "throughput_counts"])
    .where("minute", ">", since)
    .execute();
  const minutes = rows.map(({ model, provider_id, minute, attempts, failures }) => ({
    model,
    provider_id,
    minute,
    attempts,
    failures,
  }));
  return { minutes, histograms: summedHistograms(rows) };
}

type CountsRow = Pick<WindowRows["minutes"][number], "model" | "provider_id"> & {
  latency_counts: number[];
  throughput_counts: number[];
};

/** Each endpoint's bucket counts added up over its minutes, one entry per non-empty bucket. */
function summedHistograms(rows: readonly CountsRow[]): WindowRows["histograms"] {
  const sums = new Map<string, WindowRows["histograms"][number]>();
  const add = (row: CountsRow, metric: string, counts: readonly number[]): void => {
    counts.forEach((count, bucket) => {
      if (count === 0) return;
      const key = `${row.model}\n${row.provider_id}\n${metric}\n${bucket}`;
      const sum = sums.get(key);
      if (sum) sum.count += count;
      else sums.set(key, { model: row.model, provider_id: row.provider_id, metric, bucket, count });
    });
  };
  for (const row of rows) {
    add(row, "latency", row.latency_counts);
    add(row, "throughput", row.throughput_counts);
  }
  return [...sums.values()];
}

/** Drops buckets that left the window. */
export async function sweepWindow(db: Kysely<HealthTables>, now: number): Promise<void> {
  const before = new Date(now - WINDOW_MS - MINUTE_MS);
  await db.deleteFrom("endpoint_health_minutes").where("minute", "<", before).execute();
}
