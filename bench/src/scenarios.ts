import { runLoad } from "./load/generator.js";
import { holdOpenStreams, type OpenStreamsResult } from "./load/open-streams.js";
import type { LoadResult } from "./load/stats.js";
import { type ResourceUse, withResources } from "./measure.js";
import type { Plan } from "./plan.js";
import { rssMb } from "./proc.js";
import type { Target } from "./targets/target.js";
import type { UpstreamSettings } from "./upstream/responses.js";

export interface Row extends LoadResult, ResourceUse {
  scenario: string;
  target: Target["name"];
  addedP50?: number;
  addedP99?: number;
}

export interface LongRun {
  target: Target["name"];
  requests: number;
  errors: number;
  /** Failed answers by status and the body's reason, as the other scenarios count them. */
  failures: Record<string, number>;
  /** Errors in each slice: whether failures came at once, grew, or were spread over the run. */
  errorsPerSlice: number[];
  rps: number;
  /** RSS after each slice, the first after `requests / slices` requests. */
  rssMb: number[];
}

export type Configure = (settings: Partial<UpstreamSettings>) => Promise<void>;

/** A load scenario run on every target in turn (interleaved), with overhead over `direct` added. */
async function interleaved(
  name: string,
  targets: Target[],
  load: (target: Target) => Promise<LoadResult>,
): Promise<Row[]> {
  const rows: Row[] = [];
  for (const target of targets) {
    process.stderr.write(`  ${name} → ${target.name}\n`);
    const result = await withResources(target, () => load(target));
    rows.push({ scenario: name, target: target.name, ...result });
  }
  const direct = rows.find((row) => row.target === "direct");
  for (const row of rows) {
    if (!direct || row === direct) continue;
    row.addedP50 = row.p50 - direct.p50;
    row.addedP99 = row.p99 - direct.p99;
  }
  return rows;
}

/** The load scenarios; `--only=` may name a subset of them instead of `load` (development). */
export const LOAD_PARTS = ["rate", "saturation", "delayed", "stream"] as const;
export type LoadPart = (typeof LOAD_PARTS)[number];

export async function loadScenarios(
  plan: Plan,
  targets: Target[],
  configure: Configure,
  parts: ReadonlySet<LoadPart> = new Set(LOAD_PARTS),
): Promise<Row[]> {
  const rows: Row[] = [];
  await configure({});
  for (const target of targets)
    await runLoad(target, { kind: "closed", connections: 16, seconds: plan.warmupSeconds }, false);
  const rate = { kind: "rate", rps: plan.rate.rps, seconds: plan.rate.seconds } as const;
  if (parts.has("rate"))
    rows.push(
      ...(await interleaved(`chat @ ${plan.rate.rps} req/s`, targets, (t) => runLoad(t, rate, false))),
    );
  for (const connections of parts.has("saturation") ? plan.saturation.connections : []) {
    const shape = { kind: "closed", connections, seconds: plan.saturation.seconds } as const;
    rows.push(
      ...(await interleaved(`chat saturation c=${connections}`, targets, (t) => runLoad(t, shape, false))),
    );
  }
  await configure({ delayMs: plan.delayedRate.delayMs });
  const delayed = { kind: "rate", rps: plan.delayedRate.rps, seconds: plan.delayedRate.seconds } as const;
  const delayedName = `chat @ ${plan.delayedRate.rps} req/s, upstream +${plan.delayedRate.delayMs} ms`;
  if (parts.has("delayed"))
    rows.push(...(await interleaved(delayedName, targets, (t) => runLoad(t, delayed, false))));
  await configure({ streamChunks: plan.streaming.chunks });
  const streaming = {
    kind: "closed",
    connections: plan.streaming.connections,
    seconds: plan.streaming.seconds,
  } as const;
  const streamName = `stream ${plan.streaming.chunks} chunks c=${plan.streaming.connections}`;
  if (parts.has("stream"))
    rows.push(...(await interleaved(streamName, targets, (t) => runLoad(t, streaming, true))));
  await configure({});
  return rows;
}

export async function openStreamScenario(
  plan: Plan,
  targets: Target[],
  configure: Configure,
): Promise<Array<OpenStreamsResult & { target: Target["name"] }>> {
  const { count, holdSeconds, chunkIntervalMs } = plan.openStreams;
  // Long enough to outlast opening all of them and the hold; the bench hangs up before the end.
  await configure({ streamChunks: 300, chunkIntervalMs });
  const results: Array<OpenStreamsResult & { target: Target["name"] }> = [];
  for (const target of targets) {
    process.stderr.write(`  ${count} open streams → ${target.name}\n`);
    results.push({ target: target.name, ...(await holdOpenStreams(target, count, holdSeconds)) });
    // Let the target notice the hang-ups and release the streams before the next one starts.
    await new Promise((resolve) => setTimeout(resolve, 3000));
  }
  await configure({});
  return results;
}

/** Many requests in slices, RSS after each: a leak shows as growth after the first slice. */
export async function longRun(plan: Plan, target: Target): Promise<LongRun> {
  const { requests, slices, connections } = plan.longRun;
  const pid = target.pids()[0] ?? 0;
  const samples: number[] = [];
  const errorsPerSlice: number[] = [];
  const failures: Record<string, number> = {};
  let seconds = 0;
  for (let slice = 0; slice < slices; slice++) {
    const result = await runLoad(target, { kind: "closed", connections, requests: requests / slices }, false);
    errorsPerSlice.push(result.errors);
    for (const [reason, count] of Object.entries(result.failures))
      failures[reason] = (failures[reason] ?? 0) + count;
    seconds += result.seconds;
    samples.push(rssMb(pid));
    process.stderr.write(
      `  long run → ${target.name}: ${((slice + 1) * requests) / slices} requests, RSS ${samples.at(-1)?.toFixed(0)} MB\n`,
    );
  }
  const errors = errorsPerSlice.reduce((sum, count) => sum + count, 0);
  return {
    target: target.name,
    requests,
    errors,
    failures,
    errorsPerSlice,
    rps: requests / seconds,
    rssMb: samples,
  };
}
