import type { Logger } from "@gw/logger";
import type { Kysely } from "kysely";
import type { GenerationsTables } from "../db/schema.js";
import { deleteBatchStartedBefore } from "../repositories/generations.js";

export interface RetentionOptions {
  /** Records older than this are deleted; the spec keeps generation metadata 90 days. */
  retentionDays: number;
  intervalMs: number;
  batchSize: number;
}

export const DEFAULT_RETENTION: RetentionOptions = {
  retentionDays: 90,
  intervalMs: 3_600_000,
  batchSize: 1_000,
};

const DAY_MS = 86_400_000;

/** One sweep: deletes expired records batch by batch until a batch comes back short. */
export async function sweepExpired(
  db: Kysely<GenerationsTables>,
  options: Pick<RetentionOptions, "retentionDays" | "batchSize">,
  now: number = Date.now(),
): Promise<number> {
  const cutoff = new Date(now - options.retentionDays * DAY_MS);
  let total = 0;
  for (;;) {
    const deleted = await deleteBatchStartedBefore(db, cutoff, options.batchSize);
    total += deleted;
    if (deleted < options.batchSize) return total;
    // Let consumers and lookups in between batches rather than queue behind a long sweep.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

export interface RetentionJob {
  /** Waits for a sweep in progress, then stops scheduling. */
  stop(): Promise<void>;
}

/** Runs a sweep every `intervalMs` (the first one right away); a failed sweep is logged and retried later. */
export function startRetention(
  db: Kysely<GenerationsTables>,
  options: RetentionOptions,
  logger: Logger,
): RetentionJob {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const run = (): void => {
    running = sweepExpired(db, options).then(
      (deleted) => {
        if (deleted > 0)
          logger.info({ deleted, retentionDays: options.retentionDays }, "expired generations deleted");
      },
      (error: unknown) => logger.error({ err: error }, "generation retention sweep failed"),
    );
    void running.then(schedule);
  };
  const schedule = (): void => {
    if (stopped) return;
    timer = setTimeout(run, options.intervalMs);
    timer.unref();
  };

  run();
  return {
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
