import { edgeMsPerRequest, heapKbPerStream, meteringMsPerRequest } from "./figures.js";
import { edgeFigures } from "./report-tables.js";
import { bestSaturation, type ConsumerGroupsFigure } from "./rows.js";
import type { OpenStreamsRow, Row } from "./scenarios.js";

const SPLIT = "edge (split)";
const EMBEDDED = "edge (embedded)";
const FLOOR = "node floor";

const fixed = (value: number | undefined, digits: number): string =>
  value === undefined || !Number.isFinite(value) ? "—" : value.toFixed(digits);

const find = (rows: Row[], target: string, test: (scenario: string) => boolean): Row | undefined =>
  rows.find((row) => row.target === target && test(row.scenario));

/** The saturation row at the highest concurrency (issue 27's "saturation c=128"). */
export function highestSaturation(rows: Row[], target: string): Row | undefined {
  const concurrency = (row: Row): number => Number(/c=(\d+)$/.exec(row.scenario)?.[1] ?? 0);
  return rows
    .filter((row) => row.target === target && row.scenario.startsWith("chat saturation"))
    .reduce<Row | undefined>(
      (best, row) => (!best || concurrency(row) > concurrency(best) ? row : best),
      undefined,
    );
}

/**
 * Every figure the round-three issues' target tables name, read off one run, in their order: the lead
 * reads the targets here instead of from the tables. "—" where the run has no row for it.
 */
export function targetFigures(report: {
  rows: Row[];
  openStreams: OpenStreamsRow[];
  machine?: { cores: number };
  consumerGroups?: ConsumerGroupsFigure;
}): string[] {
  const rows = report.rows;
  const rate = find(rows, SPLIT, (name) => /^chat @ 1000 req\/s$/.test(name));
  const low = find(rows, SPLIT, (name) => name.includes("(low load)"));
  const paced = find(rows, SPLIT, (name) => name.startsWith("paced stream"));
  const stream = find(rows, SPLIT, (name) => name.startsWith("stream "));
  const prompts = rows.filter((row) => row.target === SPLIT && row.scenario.startsWith("chat prompt"));
  const saturated = highestSaturation(rows, SPLIT);
  const streams = (phase: string) =>
    report.openStreams.find((run) => run.target === SPLIT && run.phase === phase);
  const heap = (phase: string): string => {
    const run = streams(phase);
    return run?.heapBeforeBytes === undefined || run.heapOpenBytes === undefined
      ? "—"
      : fixed(heapKbPerStream(run.heapBeforeBytes, run.heapOpenBytes, run.open), 1);
  };
  const ratio = (target: string): string => {
    const ours = bestSaturation(rows, target as Row["target"]);
    const theirs = bestSaturation(rows, "portkey");
    return ours && theirs && theirs.rps > 0 ? fixed(ours.rps / theirs.rps, 2) : "—";
  };
  const directStream = find(rows, "direct", (name) => name.startsWith("stream "));
  const streamShare =
    stream && directStream && directStream.rps > 0 ? (stream.rps / directStream.rps) * 100 : undefined;
  return [
    `edge CPU per chat request at saturation (${saturated?.scenario ?? "—"}): ${fixed(saturated && edgeMsPerRequest(saturated), 3)} ms (target ≤ 0.20)`,
    `edge CPU per relayed stream frame (paced stream): ${fixed(paced && edgeFigures(paced, rows).perFrameUs, 2)} µs (≤ 2)`,
    `edge CPU per ${stream?.framesPerStream === undefined ? "" : `${stream.framesPerStream - 4}-chunk `}stream: ${fixed(stream && edgeMsPerRequest(stream), 3)} ms (≤ 0.25)`,
    `edge CPU per KB of prompt: ${prompts.map((row) => `${row.promptKb} KB ${fixed(edgeFigures(row, rows).perPromptKbUs, 2)} µs`).join(", ") || "—"} (≤ 3)`,
    `live heap per open stream, fresh / after the load: ${heap("fresh")} / ${heap("after the load")} KB (≤ 12)`,
    `${streams("fresh")?.requested ?? "—"} open streams, fresh edge, peak RSS: ${fixed(streams("fresh")?.rssPeakMb, 0)} MB (≤ 300)`,
    `added latency at 100 req/s, p50 / p99: ${fixed(low?.addedP50, 2)} / ${fixed(low?.addedP99, 2)} ms (≤ 0.5 / ≤ 2)`,
    `added latency at 1,000 req/s, p50 / p99: ${fixed(rate?.addedP50, 2)} / ${fixed(rate?.addedP99, 2)} ms (≤ 2 / ≤ 30)`,
    `added TTFB, paced stream, p50: ${fixed(paced?.addedTtfbP50, 2)} ms (≤ 1)`,
    `metering CPU per request at saturation (${saturated?.scenario ?? "—"}): ${fixed(saturated && meteringMsPerRequest(saturated), 3)} ms (≤ 0.15)`,
    `PostgreSQL rows / index entries written per request (${saturated?.scenario ?? "—"}): ${fixed(saturated?.tableWrites?.rowsPerRequest, 2)} / ${fixed(saturated?.tableWrites?.indexEntriesPerRequest, 2)} (≤ 2 / ≤ 6)`,
    `PostgreSQL commits per request at 1,000 req/s: ${fixed(rate?.databasePerRequest?.commits, 4)} (≤ 0.02)`,
    `consumer groups decoding every usage event: ${report.consumerGroups ? `${report.consumerGroups.readingAll.length} (${report.consumerGroups.readingAll.join(", ")})` : "—"} (2)`,
    `answer → generation record readable at 1,000 req/s, p50 / p99: ${fixed(rate?.freshness?.generation.p50, 0)} / ${fixed(rate?.freshness?.generation.p99, 0)} ms (p99 ≤ 1,000); → ledger row: ${fixed(rate?.freshness?.ledger.p50, 0)} / ${fixed(rate?.freshness?.ledger.p99, 0)} ms`,
    `embedded default, all-process CPU per request at saturation: ${fixed(bestSaturation(rows, EMBEDDED)?.cpuMsPerRequest, 3)} ms (≤ 0.40)`,
    `split plane, all-process CPU per request at saturation: ${fixed(saturated?.cpuMsPerRequest, 3)} ms (≤ 0.40)`,
    `saturation vs Portkey's: split ${ratio(SPLIT)}×, embedded ${ratio(EMBEDDED)}× (≥ 1.6×)`,
    `streams vs direct's (${stream?.scenario ?? "—"}): ${fixed(streamShare, 1)}% (≥ 20%)`,
    ...ratioBudget(report),
    ...floorFigures(report),
  ];
}

/**
 * The arithmetic behind the Portkey ratio: on `cores` cores, a target that serves R req/s at saturation
 * spends at most cores × 1,000 / R ms of the machine per request, shared with the load generator and
 * the fake upstream. 1.6× Portkey's rate leaves the split plane (every process and service) at most
 * that budget less the harness's share of it.
 */
function ratioBudget(report: { rows: Row[]; machine?: { cores: number } }): string[] {
  const portkey = bestSaturation(report.rows, "portkey");
  const split = bestSaturation(report.rows, SPLIT);
  const direct = split && find(report.rows, "direct", (name) => name === split.scenario);
  if (!report.machine || !portkey || !split || !direct || portkey.rps <= 0) return [];
  const machineMs = (rps: number) => ((report.machine?.cores ?? 0) * 1000) / rps;
  const harness = (split.generatorMsPerRequest ?? 0) + (direct.cpuMsPerRequest ?? 0);
  const needed = 1.6 * portkey.rps;
  return [
    `ratio arithmetic (${split.scenario}): ${report.machine.cores} cores; Portkey ${fixed(portkey.rps, 0)} req/s; 1.6× is ${fixed(needed, 0)} req/s, ${fixed(machineMs(needed), 3)} ms of machine per request, less the harness's ${fixed(harness, 3)} ms (load generator ${fixed(split.generatorMsPerRequest, 3)} + fake upstream ${fixed(direct.cpuMsPerRequest, 3)}) leaves the split plane ≤ ${fixed(machineMs(needed) - harness, 3)} ms; it spent ${fixed(split.cpuMsPerRequest, 3)} ms at ${fixed(split.rps, 0)} req/s (${fixed(machineMs(split.rps), 3)} ms of machine per request)`,
  ];
}

/**
 * The node floor's figures beside the edge's targets (a bare node:http + undici relay, same run): where the
 * floor alone is above a target, no edge on this stack can meet it on this machine.
 */
function floorFigures(report: { rows: Row[]; openStreams: OpenStreamsRow[] }): string[] {
  const rows = report.rows;
  const saturated = highestSaturation(rows, FLOOR);
  if (!saturated) return [];
  const paced = find(rows, FLOOR, (name) => name.startsWith("paced stream"));
  const stream = find(rows, FLOOR, (name) => name.startsWith("stream "));
  const prompts = rows.filter((row) => row.target === FLOOR && row.scenario.startsWith("chat prompt"));
  const fresh = report.openStreams.find((run) => run.target === FLOOR && run.phase === "fresh");
  const heap =
    fresh?.heapBeforeBytes === undefined || fresh.heapOpenBytes === undefined
      ? undefined
      : heapKbPerStream(fresh.heapBeforeBytes, fresh.heapOpenBytes, fresh.open);
  const portkey = bestSaturation(rows, "portkey");
  const floorBest = bestSaturation(rows, FLOOR);
  const directStream = find(rows, "direct", (name) => name.startsWith("stream "));
  // What the ratio targets can reach at most on this machine: a bare relay on the same stack.
  const floorRatio = floorBest && portkey && portkey.rps > 0 ? floorBest.rps / portkey.rps : undefined;
  const floorShare =
    stream && directStream && directStream.rps > 0 ? (stream.rps / directStream.rps) * 100 : undefined;
  return [
    `node floor (bare relay), same run: saturation vs Portkey's ${fixed(floorRatio, 2)}×; streams vs direct's ${fixed(floorShare, 1)}%`,
    `node floor (bare relay), same run: CPU per chat request at saturation ${fixed(edgeMsPerRequest(saturated), 3)} ms; per relayed frame ${fixed(paced && edgeFigures(paced, rows).perFrameUs, 2)} µs; per stream ${fixed(stream && edgeMsPerRequest(stream), 3)} ms; per KB of prompt ${prompts.map((row) => `${row.promptKb} KB ${fixed(edgeFigures(row, rows).perPromptKbUs, 2)} µs`).join(", ") || "—"}; live heap per open stream (fresh) ${fixed(heap, 1)} KB; ${fresh?.requested ?? "—"} open streams peak RSS ${fixed(fresh?.rssPeakMb, 0)} MB`,
  ];
}
