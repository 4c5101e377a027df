import { describe, expect, it } from "vitest";
import type { ProcessCpu } from "./accounting/cpu.js";
import type { Row } from "./scenarios.js";
import { highestSaturation, targetFigures } from "./target-figures.js";

const fig = (msPerRequest: number): ProcessCpu => ({
  role: "app",
  seconds: 1,
  ownSeconds: 1,
  liveDescendants: 0,
  percent: 1,
  msPerRequest,
});

function row(
  scenario: string,
  target: Row["target"],
  rps: number,
  cpu: Row["cpu"],
  extra: Partial<Row> = {},
): Row {
  return {
    scenario,
    target,
    requests: rps,
    errors: 0,
    failures: {},
    seconds: 1,
    rps,
    p50: 1,
    p99: 2,
    cpuPercent: 1,
    cpuByProcess: {},
    cpu,
    peakRssMb: 1,
    ...extra,
  };
}

const rows = [
  row("chat saturation c=32", "edge (split)", 3000, { edge: fig(0.3), billing: fig(0.05) }),
  row("chat saturation c=128", "edge (split)", 2900, {
    edge: fig(0.25),
    billing: fig(0.05),
    kafka: fig(0.02),
  }),
  row("chat saturation c=32", "portkey", 2000, { portkey: fig(0.5) }),
  row(
    "chat @ 100 req/s (low load)",
    "edge (split)",
    100,
    { edge: fig(0.4) },
    { addedP50: 0.4, addedP99: 1.5 },
  ),
  row("stream 20 chunks c=32", "edge (split)", 300, { edge: fig(0.6) }, { framesPerStream: 24 }),
  row("stream 20 chunks c=32", "direct", 1000, {}, { framesPerStream: 24 }),
];

const withFloor = [
  ...rows,
  row("chat saturation c=128", "node floor", 9000, { edge: fig(0.1) }),
  row("stream 20 chunks c=32", "node floor", 150, { edge: fig(0.2) }, { framesPerStream: 24 }),
];

describe("round three's target figures", () => {
  it("reads each issue's figure from its row: c=128 for metering, the best row for the Portkey ratio", () => {
    expect(highestSaturation(rows, "edge (split)")?.scenario).toBe("chat saturation c=128");
    const lines = targetFigures({ rows, openStreams: [] });
    const line = (start: string): string | undefined => lines.find((text) => text.startsWith(start));
    expect(line("edge CPU per chat request")).toBe(
      "edge CPU per chat request at saturation (chat saturation c=128): 0.250 ms (target ≤ 0.20)",
    );
    expect(line("metering CPU per request")).toContain(": 0.070 ms (≤ 0.15)");
    expect(line("added latency at 100 req/s")).toBe(
      "added latency at 100 req/s, p50 / p99: 0.40 / 1.50 ms (≤ 0.5 / ≤ 2)",
    );
    expect(line("edge CPU per 20-chunk stream")).toBe("edge CPU per 20-chunk stream: 0.600 ms (≤ 0.25)");
    expect(line("saturation vs Portkey's")).toBe(
      "saturation vs Portkey's: split 1.50×, embedded —× (≥ 1.6×)",
    );
    expect(line("streams vs direct's")).toBe("streams vs direct's (stream 20 chunks c=32): 30.0% (≥ 20%)");
    expect(line("consumer groups")).toBe("consumer groups decoding every usage event: — (2)");
  });

  it("does the Portkey ratio's arithmetic: the machine per request at 1.6x, less the harness's share", () => {
    const budgetRows = [
      row(
        "chat saturation c=32",
        "edge (split)",
        3000,
        { edge: fig(0.3) },
        {
          generatorMsPerRequest: 0.08,
          cpuMsPerRequest: 0.3,
        },
      ),
      row("chat saturation c=32", "direct", 9000, {}, { cpuMsPerRequest: 0.05 }),
      row("chat saturation c=32", "portkey", 2000, { portkey: fig(0.5) }),
    ];
    const lines = targetFigures({ rows: budgetRows, openStreams: [], machine: { cores: 2 } });
    expect(lines).toContain(
      "ratio arithmetic (chat saturation c=32): 2 cores; Portkey 2000 req/s; 1.6× is 3200 req/s, 0.625 ms of machine per request, less the harness's 0.130 ms (load generator 0.080 + fake upstream 0.050) leaves the split plane ≤ 0.495 ms; it spent 0.300 ms at 3000 req/s (0.667 ms of machine per request)",
    );
  });

  it("gives the node floor's ratios beside the targets: what any edge on this stack can reach here", () => {
    const lines = targetFigures({ rows: withFloor, openStreams: [] });
    expect(lines).toContain(
      "node floor (bare relay), same run: saturation vs Portkey's 4.50×; streams vs direct's 15.0%",
    );
  });
});
