import type { OpenStreamsResult } from "./load/open-streams.js";
import type { LongRun, Row } from "./scenarios.js";

export interface Report {
  date: string;
  quick: boolean;
  machine: { cpus: string; cores: number; memoryGb: number; node: string; kernel: string };
  loadAverage: { before: string; after: string };
  targets: Record<string, string>;
  portkeyError?: string;
  /** RSS of each target's measured process after start, before any request. */
  idleRssMb: Record<string, number>;
  rows: Row[];
  openStreams: Array<OpenStreamsResult & { target: string }>;
  longRun?: LongRun;
  verdicts: string[];
}

const ms = (value: number | undefined): string =>
  value === undefined || Number.isNaN(value) ? "—" : value.toFixed(2);

/** The results as a Markdown table (printed and pasted into the README). */
export function markdown(report: Report): string {
  const lines = [
    "| scenario | target | req/s | p50 ms | p99 ms | +p50 ms | +p99 ms | TTFB p50/p99 ms | CPU % (all processes) | peak RSS MB | errors |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  ];
  for (const row of report.rows) {
    const ttfb = row.ttfbP50 === undefined ? "—" : `${ms(row.ttfbP50)} / ${ms(row.ttfbP99)}`;
    lines.push(
      `| ${row.scenario} | ${row.target} | ${row.rps.toFixed(0)} | ${ms(row.p50)} | ${ms(row.p99)} | ${ms(row.addedP50)} | ${ms(row.addedP99)} | ${ttfb} | ${row.cpuPercent.toFixed(0)} | ${row.peakRssMb.toFixed(0)} | ${row.errors} |`,
    );
  }
  lines.push(
    "",
    `Idle RSS after start (MB): ${Object.entries(report.idleRssMb)
      .map(([name, value]) => `${name} ${value.toFixed(0)}`)
      .join(", ")}`,
  );
  lines.push("", "| open SSE streams | target | open | failed | opened in s | RSS before MB | RSS peak MB |");
  lines.push("| ---: | --- | ---: | ---: | ---: | ---: | ---: |");
  for (const streams of report.openStreams) {
    lines.push(
      `| ${streams.requested} | ${streams.target} | ${streams.open} | ${streams.failed} | ${streams.openSeconds.toFixed(1)} | ${streams.rssBeforeMb.toFixed(0)} | ${streams.rssPeakMb.toFixed(0)} |`,
    );
  }
  const run = report.longRun;
  if (run) {
    lines.push(
      "",
      `Long run (${run.target}): ${run.requests.toLocaleString("en")} requests at ${run.rps.toFixed(0)} req/s, ${run.errors} errors; RSS MB after each ${(run.requests / run.rssMb.length).toLocaleString("en")}: ${run.rssMb.map((value) => value.toFixed(0)).join(", ")}`,
    );
  }
  lines.push("", ...report.verdicts.map((verdict) => `- ${verdict}`));
  return lines.join("\n");
}

/** Each target of the issue, met or the measured gap. */
export function verdicts(report: Omit<Report, "verdicts">): string[] {
  const out: string[] = [];
  const best = (target: string): number =>
    Math.max(
      0,
      ...report.rows
        .filter((row) => row.scenario.includes("saturation") && row.target === target)
        .map((row) => row.rps),
    );
  const edge = best("edge");
  const portkey = best("portkey");
  if (portkey > 0) {
    const ratio = edge / portkey;
    out.push(
      `Saturation: edge ${edge.toFixed(0)} req/s vs Portkey ${portkey.toFixed(0)} req/s = ${ratio.toFixed(2)}× (target ≥ 3×): ${ratio >= 3 ? "met" : "NOT met"}`,
    );
  } else out.push(`Saturation ratio: no Portkey figure (${report.portkeyError ?? "not measured"})`);
  const rate = report.rows.find((row) => row.target === "edge" && /^chat @ \d+ req\/s$/.test(row.scenario));
  const offered = Number(rate?.scenario.split(" ")[2] ?? 0);
  if (rate && rate.rps < offered * 0.95) {
    out.push(
      `The edge sustained ${rate.rps.toFixed(0)} of ${offered} req/s offered: its latencies at that rate are queueing delay`,
    );
  }
  if (rate?.addedP50 !== undefined && rate.addedP99 !== undefined) {
    const met = rate.addedP50 <= 1 && rate.addedP99 <= 5;
    out.push(
      `Added latency at ${rate.scenario.slice(7)}: p50 +${ms(rate.addedP50)} ms (≤ 1), p99 +${ms(rate.addedP99)} ms (≤ 5): ${met ? "met" : "NOT met"}`,
    );
  }
  const streams = report.openStreams.find((entry) => entry.target === "edge");
  if (streams) {
    const met = streams.rssPeakMb < 300 && streams.open === streams.requested;
    out.push(
      `${streams.requested} open streams: edge RSS peak ${streams.rssPeakMb.toFixed(0)} MB with ${streams.open} open (< 300 MB, all open): ${met ? "met" : "NOT met"}`,
    );
  }
  const run = report.longRun;
  if (run && run.rssMb.length > 1) {
    const first = run.rssMb[0] ?? 0;
    const last = run.rssMb.at(-1) ?? 0;
    const growth = ((last - first) / first) * 100;
    out.push(
      `Long run: RSS ${first.toFixed(0)} MB after the first slice, ${last.toFixed(0)} MB at the end (${growth >= 0 ? "+" : ""}${growth.toFixed(1)}%, target within 10%): ${Math.abs(growth) <= 10 ? "met" : "NOT met"}`,
    );
  }
  return out;
}
