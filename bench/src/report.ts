import { edgeTable, meteringTable, openStreamsTable } from "./report-tables.js";
import { bestSaturation, type ConsumerGroupsFigure } from "./rows.js";
import type { LongRun, OpenStreamsRow, Row } from "./scenarios.js";
import { targetFigures } from "./target-figures.js";

export { bestSaturation };

import type { TargetName } from "./targets/target.js";

export interface Report {
  date: string;
  quick: boolean;
  machine: { cpus: string; cores: number; memoryGb: number; node: string; kernel: string };
  loadAverage: { before: string; after: string };
  targets: Record<string, string>;
  portkeyError?: string;
  /** Why the one-hop anchor (nginx) has no rows, when it has none. */
  nginxError?: string;
  /** The split plane's usage topic: events published, each group's committed offsets, who read them all. */
  consumerGroups?: ConsumerGroupsFigure;
  /** RSS of each target's measured process after start, before any request. */
  idleRssMb: Record<string, number>;
  rows: Row[];
  openStreams: OpenStreamsRow[];
  longRun?: LongRun;
  verdicts: string[];
}

const ms = (value: number | undefined): string =>
  value === undefined || Number.isNaN(value) ? "—" : value.toFixed(2);

/** "CPU ms per request, all processes": apps and the services they used, over requests completed. */
export function cpuPerRequestCell(row: Pick<Row, "cpuMsPerRequest">): string {
  const value = row.cpuMsPerRequest;
  return value === undefined || !Number.isFinite(value) ? "—" : value.toFixed(3);
}

/** The counted process trees of a row, largest first: "edge 0.21, postgresql 0.12, …" (ms per request). */
export function cpuBreakdown(row: Pick<Row, "cpu">): string {
  return Object.entries(row.cpu)
    .filter(([, figure]) => figure.msPerRequest !== undefined)
    .sort(([, a], [, b]) => (b.msPerRequest ?? 0) - (a.msPerRequest ?? 0))
    .map(([name, figure]) => `${name} ${(figure.msPerRequest ?? 0).toFixed(3)}`)
    .join(", ");
}

/** The results as a Markdown table (printed and pasted into the README). */
export function markdown(report: Report): string {
  const lines = [
    "| scenario | target | req/s | p50 ms | p99 ms | +p50 ms | +p99 ms | TTFB p50/p99 ms | CPU % (target's apps) | CPU ms per request, all processes | peak RSS MB | errors |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  ];
  for (const row of report.rows) {
    const ttfb = row.ttfbP50 === undefined ? "—" : `${ms(row.ttfbP50)} / ${ms(row.ttfbP99)}`;
    lines.push(
      `| ${row.scenario} | ${row.target} | ${row.rps.toFixed(0)} | ${ms(row.p50)} | ${ms(row.p99)} | ${ms(row.addedP50)} | ${ms(row.addedP99)} | ${ttfb} | ${row.cpuPercent.toFixed(0)} | ${cpuPerRequestCell(row)} | ${row.peakRssMb.toFixed(0)} | ${row.errors} |`,
    );
  }
  const saturated = EDGES.flatMap((name) => {
    const row = bestSaturation(report.rows, name);
    return row ? [`- ${name}, ${row.scenario}: ${cpuBreakdown(row)}`] : [];
  });
  if (saturated.length > 0) {
    lines.push("", "CPU ms per request by process tree at saturation (apps, then services):", ...saturated);
  }
  lines.push(
    "",
    `Idle RSS after start (MB): ${Object.entries(report.idleRssMb)
      .map(([name, value]) => `${name} ${value.toFixed(0)}`)
      .join(", ")}`,
  );
  const edge = edgeTable(report.rows);
  if (edge.length > 0) lines.push("", ...edge);
  const metering = meteringTable(report.rows);
  if (metering.length > 0) lines.push("", ...metering);
  if (report.consumerGroups) lines.push("", groupsLine(report.consumerGroups));
  if (report.nginxError) lines.push("", `No nginx (one-hop anchor) rows: ${report.nginxError}`);
  if (report.openStreams.length > 0) lines.push("", ...openStreamsTable(report.openStreams));
  const failed = failureLines(report);
  if (failed.length > 0)
    lines.push("", "Failures by reason (status, the body's reason and message):", ...failed);
  const run = report.longRun;
  if (run) {
    lines.push(
      "",
      `Long run (${run.target}): ${run.requests.toLocaleString("en")} requests at ${run.rps.toFixed(0)} req/s, ${run.errors} errors (per slice: ${run.errorsPerSlice.join(", ")}); RSS MB after each ${(run.requests / run.rssMb.length).toLocaleString("en")}: ${run.rssMb.map((value) => value.toFixed(0)).join(", ")}`,
    );
  }
  lines.push(
    "",
    "Round three's target figures (split plane unless named):",
    ...targetFigures(report).map((line) => `- ${line}`),
  );
  lines.push("", ...report.verdicts.map((verdict) => `- ${verdict}`));
  return lines.join("\n");
}

/** How many consumer groups read (fetched, decoded, committed) every usage event, from the broker. */
export function groupsLine(groups: NonNullable<Report["consumerGroups"]>): string {
  const committed = Object.entries(groups.committed)
    .map(([group, offset]) => `${group} ${offset}`)
    .join(", ");
  return `Consumer groups decoding every usage event (${groups.target}, ${groups.published} events on ${groups.topic}): ${groups.readingAll.length} (${groups.readingAll.join(", ") || "none"}); committed per group: ${committed || "none"}`;
}

/** Every row or open-streams run that failed, with its reasons: an error count alone names no cause. */
export function failureLines(report: Pick<Report, "rows" | "openStreams" | "longRun">): string[] {
  const entries: Array<[string, Record<string, number>]> = [
    ...report.rows.map((row): [string, Record<string, number>] => [
      `${row.scenario} → ${row.target}`,
      row.failures,
    ]),
    ...report.openStreams.map((streams): [string, Record<string, number>] => [
      `${streams.requested} open streams (${streams.phase}) → ${streams.target}`,
      streams.failures,
    ]),
    ...(report.longRun
      ? [[`long run → ${report.longRun.target}`, report.longRun.failures] as [string, Record<string, number>]]
      : []),
  ];
  return entries
    .filter(([, failures]) => Object.keys(failures).length > 0)
    .map(
      ([name, failures]) =>
        `- ${name}: ${Object.entries(failures)
          .sort(([, a], [, b]) => b - a)
          .map(([reason, count]) => `${count} × ${reason}`)
          .join("; ")}`,
    );
}

const EDGES: TargetName[] = ["edge (split)", "edge (embedded)"];

/** Each target of the issue, met or the measured gap, for each edge (split plane, embedded default). */
export function verdicts(report: Omit<Report, "verdicts">): string[] {
  const out: string[] = [];
  const portkey = bestSaturation(report.rows, "portkey");
  for (const name of EDGES) {
    out.push(...saturationVerdicts(name, bestSaturation(report.rows, name), portkey, report.portkeyError));
    out.push(...edgeVerdicts(report, name));
  }
  return out;
}

function saturationVerdicts(
  name: TargetName,
  edge: Row | undefined,
  portkey: Row | undefined,
  portkeyError?: string,
): string[] {
  const out: string[] = [];
  if (!edge) return out;
  if (portkey && portkey.rps > 0) {
    const ratio = edge.rps / portkey.rps;
    out.push(
      `Saturation: ${name} ${edge.rps.toFixed(0)} req/s vs Portkey ${portkey.rps.toFixed(0)} req/s = ${ratio.toFixed(2)}× (target ≥ 3×): ${ratio >= 3 ? "met" : "NOT met"}`,
    );
  } else out.push(`Saturation ratio: no Portkey figure (${portkeyError ?? "not measured"})`);
  const ours = edge.cpuMsPerRequest;
  const theirs = portkey?.cpuMsPerRequest;
  if (ours !== undefined && theirs !== undefined) {
    out.push(
      `CPU per request at saturation, all processes: ${name} ${ours.toFixed(3)} ms (${cpuBreakdown(edge)}) vs Portkey ${theirs.toFixed(3)} ms (target ≤ Portkey's): ${ours <= theirs ? "met" : "NOT met"}`,
    );
  }
  return out;
}

function edgeVerdicts(report: Omit<Report, "verdicts">, name: TargetName): string[] {
  const out: string[] = [];
  const rate = report.rows.find((row) => row.target === name && /^chat @ \d+ req\/s$/.test(row.scenario));
  const offered = Number(rate?.scenario.split(" ")[2] ?? 0);
  if (rate && rate.rps < offered * 0.95) {
    out.push(
      `${name} sustained ${rate.rps.toFixed(0)} of ${offered} req/s offered: its latencies at that rate are queueing delay`,
    );
  }
  if (rate?.addedP50 !== undefined && rate.addedP99 !== undefined) {
    const met = rate.addedP50 <= 1 && rate.addedP99 <= 5;
    out.push(
      `Added latency (${name}) at ${rate.scenario.slice(7)}: p50 +${ms(rate.addedP50)} ms (≤ 1), p99 +${ms(rate.addedP99)} ms (≤ 5): ${met ? "met" : "NOT met"}`,
    );
  }
  const streams = report.openStreams.find(
    (entry) => entry.target === name && entry.phase === "after the load",
  );
  if (streams) {
    const met = streams.rssPeakMb < 300 && streams.open === streams.requested;
    out.push(
      `${streams.requested} open streams: ${name} RSS peak ${streams.rssPeakMb.toFixed(0)} MB with ${streams.open} open (< 300 MB, all open): ${met ? "met" : "NOT met"}`,
    );
  }
  const run = report.longRun;
  if (run && run.target === name && run.rssMb.length > 1) {
    const first = run.rssMb[0] ?? 0;
    const last = run.rssMb.at(-1) ?? 0;
    const growth = ((last - first) / first) * 100;
    out.push(
      `Long run (${name}): RSS ${first.toFixed(0)} MB after the first slice, ${last.toFixed(0)} MB at the end (${growth >= 0 ? "+" : ""}${growth.toFixed(1)}%, target within 10%): ${Math.abs(growth) <= 10 ? "met" : "NOT met"}`,
    );
  }
  return out;
}
