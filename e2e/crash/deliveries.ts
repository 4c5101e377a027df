import type { AppProcess } from "../processes.js";

/** The debug line a usage consumer writes for every batch its handler is given (billing, generations). */
const DELIVERED = "usage events delivered";

/** What one consumer process's handler was given: per event id, how many times. */
export interface Deliveries {
  counts: Map<string, number>;
  /** The last event id of the last batch read so far. */
  lastId(): string | undefined;
}

/**
 * Follows a consumer's stdout (its kept output is only the tail) for its per-batch debug lines. For a
 * process killed with SIGKILL the counts are a lower bound: pino writes asynchronously, and what it
 * had not handed to the pipe yet dies with the process.
 */
export function followDeliveries(app: AppProcess): Deliveries {
  const counts = new Map<string, number>();
  let partial = "";
  let last: string | undefined;
  app.child.stdout?.on("data", (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) {
      if (!line.includes(DELIVERED)) continue;
      const entry = JSON.parse(line) as { msg?: string; eventIds?: string[] };
      if (entry.msg !== DELIVERED) continue;
      for (const id of entry.eventIds ?? []) counts.set(id, (counts.get(id) ?? 0) + 1);
      last = entry.eventIds?.at(-1) ?? last;
    }
  });
  return { counts, lastId: () => last };
}

/** Ids present in both maps. */
export function inBoth(first: ReadonlyMap<string, number>, second: ReadonlyMap<string, number>): string[] {
  return [...first.keys()].filter((id) => second.has(id));
}
