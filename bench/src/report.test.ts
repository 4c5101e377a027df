import { describe, expect, it } from "vitest";
import { markdown, type Report, verdicts } from "./report.js";
import type { Row } from "./scenarios.js";
import type { TargetName } from "./targets/target.js";

function row(target: TargetName, rps: number, cpu: Row["cpu"], cpuMsPerRequest?: number): Row {
  return {
    scenario: "chat saturation c=32",
    target,
    requests: rps * 10,
    errors: 0,
    failures: {},
    seconds: 10,
    rps,
    p50: 1,
    p99: 2,
    cpuPercent: 90,
    cpuByProcess: {},
    cpu,
    ...(cpuMsPerRequest === undefined ? {} : { cpuMsPerRequest }),
    peakRssMb: 100,
  };
}

const fig = (role: "app" | "infrastructure", msPerRequest: number) => ({
  role,
  seconds: 1,
  ownSeconds: 1,
  liveDescendants: 0,
  percent: 10,
  msPerRequest,
});

function report(rows: Row[]): Omit<Report, "verdicts"> {
  return {
    date: "2026-11-23T00:00:00.000Z",
    quick: true,
    machine: { cpus: "x", cores: 2, memoryGb: 1, node: "v24", kernel: "6" },
    loadAverage: { before: "0", after: "0" },
    targets: {},
    idleRssMb: {},
    rows,
    openStreams: [],
  };
}

const rows = [
  row("edge (split)", 3000, { edge: fig("app", 0.2), postgresql: fig("infrastructure", 0.15) }, 0.35),
  row("edge (embedded)", 2000, { standalone: fig("app", 0.6) }, 0.6),
  row("portkey", 1000, { portkey: fig("app", 0.5) }, 0.5),
  // Every answer failed: no request completed, no per-request figure.
  { ...row("direct", 0, {}), requests: 0 },
];

describe("the table's CPU column", () => {
  it("shows CPU ms per request over all processes for each row, — when none completed", () => {
    const lines = markdown({ ...report(rows), verdicts: [] }).split("\n");
    expect(lines[0]).toContain("| CPU ms per request, all processes |");
    const cell = (line: string | undefined): string | undefined => line?.split("|")[10]?.trim();
    expect(cell(lines.find((line) => line.includes("| edge (split) |")))).toBe("0.350");
    expect(cell(lines.find((line) => line.includes("| edge (embedded) |")))).toBe("0.600");
    expect(cell(lines.find((line) => line.includes("| portkey |")))).toBe("0.500");
    expect(cell(lines.find((line) => line.includes("| direct |")))).toBe("—");
  });

  it("breaks the edge's figure down by process tree, largest first", () => {
    const text = markdown({ ...report(rows), verdicts: [] });
    expect(text).toContain("- edge (split), chat saturation c=32: edge 0.200, postgresql 0.150");
  });
});

describe("verdicts", () => {
  it("judges both edges against Portkey: throughput ratio and CPU per request over all processes", () => {
    const out = verdicts(report(rows));
    expect(out).toContain(
      "Saturation: edge (split) 3000 req/s vs Portkey 1000 req/s = 3.00× (target ≥ 3×): met",
    );
    expect(out).toContain(
      "Saturation: edge (embedded) 2000 req/s vs Portkey 1000 req/s = 2.00× (target ≥ 3×): NOT met",
    );
    expect(
      out.find((line) => line.startsWith("CPU per request at saturation, all processes: edge (split)")),
    ).toMatch(/0\.350 ms .* vs Portkey 0\.500 ms .*: met$/);
    expect(
      out.find((line) => line.startsWith("CPU per request at saturation, all processes: edge (embedded)")),
    ).toMatch(/0\.600 ms .* vs Portkey 0\.500 ms .*: NOT met$/);
  });
});

describe("verdicts without load rows (--only=streams)", () => {
  it("still judges each edge's open streams", () => {
    const streams = {
      requested: 500,
      open: 500,
      failed: 0,
      openSeconds: 1,
      rssBeforeMb: 100,
      rssPeakMb: 150,
      failures: {},
    };
    const out = verdicts({
      ...report([]),
      openStreams: [{ target: "edge (embedded)", phase: "after the load", ...streams }],
    });
    expect(out).toEqual([
      "500 open streams: edge (embedded) RSS peak 150 MB with 500 open (< 300 MB, all open): met",
    ]);
  });
});

describe("failures by reason", () => {
  it("lists each failed row and open-streams run with its reasons, most frequent first", () => {
    const failing = { ...row("portkey", 0, {}), scenario: "stream 20 chunks c=32", errors: 7 };
    failing.failures = { "HTTP 500 Something went wrong": 2, "other error": 5 };
    const streams = {
      target: "edge (split)" as const,
      phase: "fresh" as const,
      requested: 500,
      open: 48,
      failed: 452,
      openSeconds: 9,
      rssBeforeMb: 100,
      rssPeakMb: 150,
      failures: { "HTTP 503 dependency_unavailable: billing service is unavailable": 452 },
    };
    const text = markdown({ ...report([...rows, failing]), openStreams: [streams], verdicts: [] });
    const listed = text.split("\n").filter((line) => line.startsWith("- ") && line.includes(" × "));
    expect(listed).toEqual([
      "- stream 20 chunks c=32 → portkey: 5 × other error; 2 × HTTP 500 Something went wrong",
      "- 500 open streams (fresh) → edge (split): 452 × HTTP 503 dependency_unavailable: billing service is unavailable",
    ]);
  });

  it("gives the long run's failures by reason and its errors per slice", () => {
    const longRun = {
      target: "edge (split)" as const,
      requests: 1000,
      errors: 30,
      errorsPerSlice: [0, 20, 10],
      failures: { "HTTP 429 rate_limited: rate limit exceeded": 30 },
      rps: 100,
      rssMb: [100, 101, 102],
    };
    const text = markdown({ ...report(rows), longRun, verdicts: [] });
    expect(text).toContain("- long run → edge (split): 30 × HTTP 429 rate_limited: rate limit exceeded");
    expect(text).toContain("30 errors (per slice: 0, 20, 10)");
  });
});
