import {
  CONSUMER_TREES,
  edgeMsPerRequest,
  edgeUsPerFrame,
  edgeUsPerPromptKb,
  heapKbPerStream,
  meteringMsPerRequest,
  treesMsPerRequest,
} from "./figures.js";
import type { OpenStreamsRow, Row } from "./scenarios.js";

const fixed = (value: number | undefined, digits: number): string =>
  value === undefined || !Number.isFinite(value) ? "—" : value.toFixed(digits);

const isStream = (row: Row): boolean => row.framesPerStream !== undefined;

/**
 * The plain chat row a row's extra cost is measured against: the tiny-prompt closed loop at the same
 * concurrency ("chat saturation c=32" for "chat prompt 8 KB c=32" and for "stream … c=32"), else the
 * first saturation row of the target.
 */
export function baselineOf(row: Row, rows: Row[]): Row | undefined {
  const concurrency = /c=(\d+)$/.exec(row.scenario)?.[1];
  const same = rows.filter(
    (other) => other.target === row.target && other.scenario.startsWith("chat saturation"),
  );
  return same.find((other) => other.scenario.endsWith(`c=${concurrency}`)) ?? same[0];
}

/** Issue 26's edge figures for one row of a target that has an `edge` process (the split plane). */
export interface EdgeFigures {
  perRequestMs?: number;
  perStreamMs?: number;
  perFrameUs?: number;
  perPromptKbUs?: number;
}

export function edgeFigures(row: Row, rows: Row[]): EdgeFigures {
  const own = edgeMsPerRequest(row);
  const base = baselineOf(row, rows);
  const baseMs = base && base !== row ? edgeMsPerRequest(base) : undefined;
  if (isStream(row)) {
    const perFrameUs = edgeUsPerFrame(own, baseMs, row.framesPerStream ?? 0);
    return {
      ...(own === undefined ? {} : { perStreamMs: own }),
      ...(perFrameUs === undefined ? {} : { perFrameUs }),
    };
  }
  const perPromptKbUs =
    base && row.promptKb !== undefined && base.promptKb !== undefined
      ? edgeUsPerPromptKb(own, baseMs, row.promptKb, base.promptKb)
      : undefined;
  return {
    ...(own === undefined ? {} : { perRequestMs: own }),
    ...(perPromptKbUs === undefined ? {} : { perPromptKbUs }),
  };
}

/** One line per row of every target with an edge process: CPU per request, stream, frame, KB; added TTFB. */
export function edgeTable(rows: Row[]): string[] {
  const withEdge = rows.filter((row) => row.cpu.edge !== undefined);
  if (withEdge.length === 0) return [];
  const lines = [
    "Edge process (each edge's edge process alone, and the node floor's one process; per-frame and per-KB over the tiny chat row at the same concurrency):",
    "",
    "| scenario | target | edge CPU ms per request | edge CPU ms per stream | edge CPU µs per relayed frame | edge CPU µs per KB of prompt | +TTFB p50 ms | +p50 / +p99 ms |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
  ];
  for (const row of withEdge) {
    const figures = edgeFigures(row, rows);
    lines.push(
      `| ${row.scenario} | ${row.target} | ${fixed(figures.perRequestMs, 3)} | ${fixed(figures.perStreamMs, 3)} | ${fixed(figures.perFrameUs, 2)} | ${fixed(figures.perPromptKbUs, 2)} | ${fixed(row.addedTtfbP50, 2)} | ${fixed(row.addedP50, 2)} / ${fixed(row.addedP99, 2)} |`,
    );
  }
  return lines;
}

const pair = (p50: number | undefined, p99: number | undefined): string =>
  p50 === undefined || Number.isNaN(p50) ? "—" : `${fixed(p50, 0)} / ${fixed(p99, 0)}`;

/** Issue 27's figures for every row with metering services (the split plane). */
export function meteringTable(rows: Row[]): string[] {
  const metered = rows.filter((row) => row.cpu.billing !== undefined);
  if (metered.length === 0) return [];
  const lines = [
    "Metering (split plane; PostgreSQL figures from its own database, freshness from sampled answers):",
    "",
    "| scenario | req/s | metering CPU ms per request | broker (kafka) ms | consumers (billing + generations) ms | PG commits per request | PG rows written per request | PG index entries per request | answer → record p50 / p99 ms | answer → ledger p50 / p99 ms |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  ];
  for (const row of metered) {
    const fresh = row.freshness;
    lines.push(
      `| ${row.scenario} | ${row.rps.toFixed(0)} | ${fixed(meteringMsPerRequest(row), 3)} | ${fixed(row.cpu.kafka?.msPerRequest, 3)} | ${fixed(treesMsPerRequest(row, CONSUMER_TREES), 3)} | ${fixed(row.databasePerRequest?.commits, 4)} | ${fixed(row.tableWrites?.rowsPerRequest, 2)} | ${fixed(row.tableWrites?.indexEntriesPerRequest, 2)} | ${pair(fresh?.generation.p50, fresh?.generation.p99)} | ${pair(fresh?.ledger.p50, fresh?.ledger.p99)} |`,
    );
  }
  return lines;
}

/** The open-streams runs: fresh edges first, then every target after the load. */
export function openStreamsTable(runs: OpenStreamsRow[]): string[] {
  const lines = [
    "| open SSE streams | phase | target | open | failed | opened in s | RSS before MB | RSS peak MB | live heap KB per open stream |",
    "| ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
  ];
  for (const run of runs) {
    const heap =
      run.heapBeforeBytes === undefined || run.heapOpenBytes === undefined
        ? undefined
        : heapKbPerStream(run.heapBeforeBytes, run.heapOpenBytes, run.open);
    lines.push(
      `| ${run.requested} | ${run.phase} | ${run.target} | ${run.open} | ${run.failed} | ${run.openSeconds.toFixed(1)} | ${run.rssBeforeMb.toFixed(0)} | ${run.rssPeakMb.toFixed(0)} | ${fixed(heap, 1)} |`,
    );
  }
  return lines;
}
