import { describe, expect, it } from "vitest";
import type { ProcessCpu } from "./accounting/cpu.js";
import { baselineOf, edgeFigures, meteringTable, openStreamsTable } from "./report-tables.js";
import type { Row } from "./scenarios.js";

const fig = (msPerRequest: number, role: ProcessCpu["role"] = "app"): ProcessCpu => ({
  role,
  seconds: 1,
  ownSeconds: 1,
  liveDescendants: 0,
  percent: 10,
  msPerRequest,
});

function row(scenario: string, cpu: Row["cpu"], extra: Partial<Row> = {}): Row {
  return {
    scenario,
    target: "edge (split)",
    requests: 1000,
    errors: 0,
    failures: {},
    seconds: 1,
    rps: 1000,
    p50: 1,
    p99: 2,
    cpuPercent: 50,
    cpuByProcess: {},
    cpu,
    peakRssMb: 100,
    ...extra,
  };
}

const tiny32 = row("chat saturation c=32", { edge: fig(0.3) }, { promptKb: 0.125 });
const tiny128 = row("chat saturation c=128", { edge: fig(0.25) }, { promptKb: 0.125 });
const prompt = row("chat prompt 8 KB c=32", { edge: fig(0.3315) }, { promptKb: 8 });
const paced = row("paced stream 20 chunks 5 ms apart c=32", { edge: fig(0.54) }, { framesPerStream: 24 });
const rows = [tiny32, tiny128, prompt, paced];

describe("the edge figures of a row", () => {
  it("measures a row against the tiny chat row at the same concurrency", () => {
    expect(baselineOf(prompt, rows)).toBe(tiny32);
    expect(baselineOf(row("stream c=128", {}), rows)).toBe(tiny128);
    expect(baselineOf(row("stream c=7", {}), rows)).toBe(tiny32);
  });

  it("gives a plain row its CPU per request and per KB of prompt over the tiny one", () => {
    const figures = edgeFigures(prompt, rows);
    expect(figures.perRequestMs).toBe(0.3315);
    // (0.3315 − 0.3) ms × 1000 / (8 − 0.125) KB = 4 µs per KB.
    expect(figures.perPromptKbUs).toBeCloseTo(4, 10);
    expect(edgeFigures(tiny32, rows).perPromptKbUs).toBeUndefined();
  });

  it("gives a stream row its CPU per stream and per relayed frame", () => {
    const figures = edgeFigures(paced, rows);
    expect(figures.perStreamMs).toBe(0.54);
    // (0.54 − 0.3) ms × 1000 / 24 frames = 10 µs.
    expect(figures.perFrameUs).toBeCloseTo(10, 10);
    expect(figures.perRequestMs).toBeUndefined();
  });
});

describe("the metering table", () => {
  it("has a line per split-plane row with metering, broker, consumer, database and freshness figures", () => {
    const fresh = { samples: 10, unresolved: 0, p50: 200, p99: 700, queries: 4 };
    const metered = row(
      "chat @ 1000 req/s",
      {
        edge: fig(0.3),
        kafka: fig(0.05, "infrastructure"),
        postgresql: fig(0.1, "infrastructure"),
        redis: fig(0.02, "infrastructure"),
        billing: fig(0.04),
        generations: fig(0.03),
        keys: fig(0.01),
      },
      {
        databasePerRequest: {
          commits: 0.02,
          rowsInserted: 2,
          rowsUpdated: 0,
          rowsDeleted: 0,
          blocksRead: 0,
          walBytes: 1,
        },
        tableWrites: { rowsPerRequest: 2, indexEntriesPerRequest: 6, byTable: {} },
        freshness: { generation: fresh, ledger: { ...fresh, p99: 900 } },
      },
    );
    const lines = meteringTable([
      metered,
      row("chat @ 1000 req/s", { portkey: fig(1) }, { target: "portkey" }),
    ]);
    expect(lines.filter((line) => line.startsWith("| chat"))).toEqual([
      "| chat @ 1000 req/s | 1000 | 0.250 | 0.050 | 0.070 | 0.0200 | 2.00 | 6.00 | 200 / 700 | 200 / 900 |",
    ]);
  });
});

describe("the open-streams table", () => {
  it("shows the phase and the live heap per open stream where it was measured", () => {
    const run = {
      target: "edge (split)" as const,
      phase: "fresh" as const,
      requested: 5000,
      open: 5000,
      failed: 0,
      openSeconds: 4,
      rssBeforeMb: 90,
      rssPeakMb: 250,
      failures: {},
    };
    const lines = openStreamsTable([
      { ...run, heapBeforeBytes: 40 * 2 ** 20, heapOpenBytes: 40 * 2 ** 20 + 5000 * 10 * 1024 },
      { ...run, phase: "after the load", target: "portkey" },
    ]);
    expect(lines.slice(2)).toEqual([
      "| 5000 | fresh | edge (split) | 5000 | 0 | 4.0 | 90 | 250 | 10.0 |",
      "| 5000 | after the load | portkey | 5000 | 0 | 4.0 | 90 | 250 | — |",
    ]);
  });
});
