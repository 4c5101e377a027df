/** Sizes of every scenario; `--quick` shrinks them to a smoke run of a few seconds each. */
export interface Plan {
  quick: boolean;
  warmupSeconds: number;
  rate: { rps: number; seconds: number };
  delayedRate: { rps: number; seconds: number; delayMs: number };
  /** Low load, where no process waits for a core: the edge's own added latency. */
  lowRate: { rps: number; seconds: number };
  saturation: { connections: number[]; seconds: number };
  /** Closed loop at the first saturation concurrency with larger prompts (request body KB). */
  prompts: { kb: number[]; seconds: number };
  streaming: { connections: number; seconds: number; chunks: number };
  /** One frame per upstream write, `intervalMs` apart: TTFB and CPU per relayed frame. */
  paced: { connections: number; seconds: number; chunks: number; intervalMs: number };
  /** Every `sampleEvery`-th answer's rows are polled for every `pollMs` (split plane only). */
  freshness: { sampleEvery: number; pollMs: number; timeoutMs: number };
  openStreams: { count: number; holdSeconds: number; chunkIntervalMs: number };
  longRun: { requests: number; slices: number; connections: number };
}

export function planFor(quick: boolean, longRequests?: number, rate?: number): Plan {
  const plan = basePlan(quick);
  if (longRequests) plan.longRun.requests = longRequests;
  if (rate) plan.rate.rps = rate;
  return plan;
}

function basePlan(quick: boolean): Plan {
  if (quick) {
    return {
      quick,
      warmupSeconds: 1,
      rate: { rps: 1000, seconds: 3 },
      delayedRate: { rps: 1000, seconds: 2, delayMs: 20 },
      lowRate: { rps: 100, seconds: 3 },
      saturation: { connections: [32], seconds: 3 },
      prompts: { kb: [8, 64], seconds: 3 },
      streaming: { connections: 16, seconds: 3, chunks: 20 },
      paced: { connections: 16, seconds: 3, chunks: 20, intervalMs: 5 },
      freshness: { sampleEvery: 20, pollMs: 25, timeoutMs: 10_000 },
      openStreams: { count: 500, holdSeconds: 2, chunkIntervalMs: 1000 },
      longRun: { requests: 20_000, slices: 10, connections: 32 },
    };
  }
  return {
    quick,
    warmupSeconds: 10,
    rate: { rps: 1000, seconds: 15 },
    delayedRate: { rps: 1000, seconds: 10, delayMs: 20 },
    lowRate: { rps: 100, seconds: 10 },
    saturation: { connections: [32, 128], seconds: 8 },
    prompts: { kb: [8, 64], seconds: 8 },
    streaming: { connections: 32, seconds: 10, chunks: 20 },
    paced: { connections: 32, seconds: 10, chunks: 20, intervalMs: 5 },
    freshness: { sampleEvery: 20, pollMs: 25, timeoutMs: 10_000 },
    openStreams: { count: 5000, holdSeconds: 5, chunkIntervalMs: 1000 },
    longRun: { requests: 1_000_000, slices: 10, connections: 64 },
  };
}
