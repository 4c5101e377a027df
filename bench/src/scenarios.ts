import { liveHeapBytes } from "./accounting/heap.js";
import { type LoadOptions, runLoad } from "./load/generator.js";
import { holdOpenStreams, type OpenStreamsResult } from "./load/open-streams.js";
import type { LoadResult } from "./load/stats.js";
import { type ResourceUse, withResources } from "./measure.js";
import { probeCommits, type RowFreshness, withFreshness } from "./metering.js";
import type { Plan } from "./plan.js";
import { rssMb } from "./proc.js";
import type { Target } from "./targets/target.js";
import { chatBody } from "./targets/target.js";
import { FRAMES_BESIDE_CONTENT, type UpstreamSettings } from "./upstream/responses.js";

export interface Row extends LoadResult, ResourceUse {
  scenario: string;
  target: Target["name"];
  addedP50?: number;
  addedP99?: number;
  /** Streams: TTFB p50 minus direct's in the same scenario. */
  addedTtfbP50?: number;
  /** The request body's size in KB (every row; the prompt-size rows are 8 and 64). */
  promptKb?: number;
  /** Streams: frames the upstream sent per stream (content chunks + role, finish, usage, [DONE]). */
  framesPerStream?: number;
  /** Split plane, 1,000 req/s and the highest saturation: answer → record / ledger row readable. */
  freshness?: RowFreshness;
}

/** What a scenario adds to its rows beside the load's own figures. */
type RowShape = Pick<Row, "promptKb" | "framesPerStream">;

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
  load: (target: Target, options: LoadOptions) => Promise<LoadResult>,
  shape: RowShape,
  fresh?: Plan,
): Promise<Row[]> {
  const rows: Row[] = [];
  for (const target of targets) {
    process.stderr.write(`  ${name} → ${target.name}\n`);
    const result = await withResources(target, () =>
      fresh ? withFreshness(fresh, target, (options) => load(target, options)) : load(target, {}),
    );
    const row: Row = { scenario: name, target: target.name, ...shape, ...result };
    const probes = probeCommits(row.freshness);
    if (row.databasePerRequest && probes > 0 && row.requests > 0)
      row.databasePerRequest.commits -= probes / row.requests;
    rows.push(row);
  }
  addOverDirect(rows);
  return rows;
}

/** The added latency (and TTFB) of every row over direct's in the same scenario. */
export function addOverDirect(rows: Row[]): void {
  const direct = rows.find((row) => row.target === "direct");
  for (const row of rows) {
    if (!direct || row === direct) continue;
    row.addedP50 = row.p50 - direct.p50;
    row.addedP99 = row.p99 - direct.p99;
    if (row.ttfbP50 !== undefined && direct.ttfbP50 !== undefined)
      row.addedTtfbP50 = row.ttfbP50 - direct.ttfbP50;
  }
}

const kbOf = (bytes: number): number => bytes / 1024;

/** The load scenarios; `--only=` may name a subset of them instead of `load` (development). */
export const LOAD_PARTS = ["rate", "low", "saturation", "prompt", "delayed", "stream", "paced"] as const;
export type LoadPart = (typeof LOAD_PARTS)[number];

export async function loadScenarios(
  plan: Plan,
  targets: Target[],
  configure: Configure,
  parts: ReadonlySet<LoadPart> = new Set(LOAD_PARTS),
): Promise<Row[]> {
  const rows: Row[] = [];
  const tiny = { promptKb: kbOf(chatBody("openai/gpt-4o-mini", false).length) };
  await configure({});
  for (const target of targets)
    await runLoad(target, { kind: "closed", connections: 16, seconds: plan.warmupSeconds }, false);
  const rate = { kind: "rate", rps: plan.rate.rps, seconds: plan.rate.seconds } as const;
  if (parts.has("rate")) {
    const name = `chat @ ${plan.rate.rps} req/s`;
    rows.push(...(await interleaved(name, targets, (t, o) => runLoad(t, rate, false, o), tiny, plan)));
  }
  const low = { kind: "rate", rps: plan.lowRate.rps, seconds: plan.lowRate.seconds } as const;
  if (parts.has("low")) {
    const name = `chat @ ${plan.lowRate.rps} req/s (low load)`;
    rows.push(...(await interleaved(name, targets, (t, o) => runLoad(t, low, false, o), tiny)));
  }
  const highest = Math.max(...plan.saturation.connections);
  for (const connections of parts.has("saturation") ? plan.saturation.connections : []) {
    const shape = { kind: "closed", connections, seconds: plan.saturation.seconds } as const;
    const name = `chat saturation c=${connections}`;
    const fresh = connections === highest ? plan : undefined;
    rows.push(...(await interleaved(name, targets, (t, o) => runLoad(t, shape, false, o), tiny, fresh)));
  }
  rows.push(...(parts.has("prompt") ? await promptScenarios(plan, targets) : []));
  await configure({ delayMs: plan.delayedRate.delayMs });
  const delayed = { kind: "rate", rps: plan.delayedRate.rps, seconds: plan.delayedRate.seconds } as const;
  const delayedName = `chat @ ${plan.delayedRate.rps} req/s, upstream +${plan.delayedRate.delayMs} ms`;
  if (parts.has("delayed"))
    rows.push(...(await interleaved(delayedName, targets, (t, o) => runLoad(t, delayed, false, o), tiny)));
  rows.push(...(parts.has("stream") ? await streamScenario(plan, targets, configure) : []));
  rows.push(...(parts.has("paced") ? await pacedScenario(plan, targets, configure) : []));
  await configure({});
  return rows;
}

/** Closed loop at the first saturation concurrency with padded prompts: edge CPU per KB of prompt. */
async function promptScenarios(plan: Plan, targets: Target[]): Promise<Row[]> {
  const rows: Row[] = [];
  const connections = plan.saturation.connections[0] ?? 32;
  for (const kb of plan.prompts.kb) {
    const shape = { kind: "closed", connections, seconds: plan.prompts.seconds } as const;
    const name = `chat prompt ${kb} KB c=${connections}`;
    const load = (t: Target, o: LoadOptions) => runLoad(t, shape, false, { ...o, bodyBytes: kb * 1024 });
    rows.push(...(await interleaved(name, targets, load, { promptKb: kb })));
  }
  return rows;
}

async function streamScenario(plan: Plan, targets: Target[], configure: Configure): Promise<Row[]> {
  const { connections, seconds, chunks } = plan.streaming;
  await configure({ streamChunks: chunks });
  const shape = { kind: "closed", connections, seconds } as const;
  const name = `stream ${chunks} chunks c=${connections}`;
  const framesPerStream = chunks + FRAMES_BESIDE_CONTENT;
  return interleaved(name, targets, (t, o) => runLoad(t, shape, true, o), { framesPerStream });
}

/** Streams whose upstream writes one frame every few ms: each frame is its own read at the edge. */
async function pacedScenario(plan: Plan, targets: Target[], configure: Configure): Promise<Row[]> {
  const { connections, seconds, chunks, intervalMs } = plan.paced;
  await configure({ streamChunks: chunks, chunkIntervalMs: intervalMs });
  const shape = { kind: "closed", connections, seconds } as const;
  const name = `paced stream ${chunks} chunks ${intervalMs} ms apart c=${connections}`;
  const framesPerStream = chunks + FRAMES_BESIDE_CONTENT;
  const rows = await interleaved(name, targets, (t, o) => runLoad(t, shape, true, o), { framesPerStream });
  await configure({});
  return rows;
}

export type OpenStreamsRow = OpenStreamsResult & {
  target: Target["name"];
  /** On processes that served nothing yet, or after every other scenario. */
  phase: "fresh" | "after the load";
};

export async function openStreamScenario(
  plan: Plan,
  targets: Target[],
  configure: Configure,
  phase: OpenStreamsRow["phase"],
): Promise<OpenStreamsRow[]> {
  const { count, holdSeconds, chunkIntervalMs } = plan.openStreams;
  // Long enough to outlast opening all of them and the hold; the bench hangs up before the end.
  await configure({ streamChunks: 300, chunkIntervalMs });
  const results: OpenStreamsRow[] = [];
  for (const target of targets) {
    process.stderr.write(`  ${count} open streams (${phase}) → ${target.name}\n`);
    const inspector = await target.inspectorUrl?.();
    const heap = inspector ? () => liveHeapBytes(inspector) : undefined;
    results.push({
      target: target.name,
      phase,
      ...(await holdOpenStreams(target, count, holdSeconds, heap)),
    });
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
