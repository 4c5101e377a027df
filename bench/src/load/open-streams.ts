import { performance } from "node:perf_hooks";
import { Pool } from "undici";
import { rssMb } from "../proc.js";
import { chatBody, type Target } from "../targets/target.js";
import { failureReason } from "./failure.js";

export interface OpenStreamsResult {
  requested: number;
  /** Streams whose first byte arrived while all were meant to be open. */
  open: number;
  failed: number;
  openSeconds: number;
  /** The target's RSS before opening and at the highest sample while the streams were open. */
  rssBeforeMb: number;
  rssPeakMb: number;
  failures: Record<string, number>;
  /** Live heap after a full GC before opening and with all open (edges, through their inspector). */
  heapBeforeBytes?: number;
  heapOpenBytes?: number;
}

/**
 * Opens `count` SSE streams at once and holds them open (the upstream paces its chunks so each stream
 * lasts well beyond the measurement), samples the target's RSS, then hangs up on all of them.
 */
export async function holdOpenStreams(
  target: Target,
  count: number,
  holdSeconds: number,
  liveHeap?: () => Promise<number>,
): Promise<OpenStreamsResult> {
  const origin = new URL(target.url);
  const pool = new Pool(origin.origin, { connections: count, pipelining: 1, keepAliveTimeout: 60_000 });
  const controller = new AbortController();
  const pid = target.pids()[0] ?? 0;
  const rssBeforeMb = rssMb(pid);
  const heapBeforeBytes = await liveHeap?.().catch(() => undefined);
  let open = 0;
  let failed = 0;
  const failures: Record<string, number> = {};
  const body = chatBody(target.model, true);
  const started = performance.now();
  let allOpenAt = 0;
  const opened = new Promise<void>((resolve) => {
    const check = (): void => {
      if (open + failed === count) {
        allOpenAt = performance.now();
        resolve();
      }
    };
    for (let index = 0; index < count; index++) {
      pool
        .request({
          method: "POST",
          path: origin.pathname,
          headers: target.headers,
          body,
          signal: controller.signal,
        })
        .then(async (response) => {
          if (response.statusCode !== 200) {
            throw new Error(failureReason(response.statusCode, await response.body.text()));
          }
          let counted = false;
          for await (const _chunk of response.body) {
            if (!counted) {
              counted = true;
              open++;
              check();
            }
          }
        })
        .catch((error: Error) => {
          if (controller.signal.aborted) return;
          failed++;
          const reason = error.message.slice(0, 120);
          failures[reason] = (failures[reason] ?? 0) + 1;
          check();
        });
    }
  });
  let rssPeakMb = rssBeforeMb;
  const sampler = setInterval(() => {
    rssPeakMb = Math.max(rssPeakMb, rssMb(pid));
  }, 250);
  const timeout = new Promise<void>((resolve) => setTimeout(resolve, 120_000));
  await Promise.race([opened, timeout]);
  await new Promise((resolve) => setTimeout(resolve, holdSeconds * 1000));
  rssPeakMb = Math.max(rssPeakMb, rssMb(pid));
  // Taken while every stream is still open (the upstream's chunks are a second apart, the GC is forced).
  const heapOpenBytes = await liveHeap?.().catch(() => undefined);
  rssPeakMb = Math.max(rssPeakMb, rssMb(pid));
  clearInterval(sampler);
  const result = {
    requested: count,
    open,
    failed,
    openSeconds: ((allOpenAt || performance.now()) - started) / 1000,
    rssBeforeMb,
    rssPeakMb,
    failures,
    ...(heapBeforeBytes === undefined ? {} : { heapBeforeBytes }),
    ...(heapOpenBytes === undefined ? {} : { heapOpenBytes }),
  };
  controller.abort();
  await pool.destroy();
  return result;
}
