import { describe, expect, it } from "vitest";
import type { ProcessCpu } from "./accounting/cpu.js";
import { ASSUMPTIONS, components, coresAt, freshnessLines, plan, processesFor } from "./scaling.js";
import type { Row } from "./scenarios.js";

const figure = (role: ProcessCpu["role"], msPerRequest: number): ProcessCpu => ({
  role,
  seconds: 1,
  ownSeconds: 1,
  liveDescendants: 0,
  percent: 10,
  msPerRequest,
});

const row: Row = {
  scenario: "chat saturation c=128",
  target: "edge (split)",
  requests: 30_000,
  errors: 0,
  failures: {},
  seconds: 10,
  rps: 3000,
  p50: 1,
  p99: 2,
  cpuPercent: 100,
  cpuByProcess: {},
  cpu: {
    edge: figure("app", 0.2),
    billing: figure("app", 0.07),
    generations: figure("app", 0.05),
    keys: figure("app", 0),
    kafka: figure("infrastructure", 0.04),
    postgresql: figure("infrastructure", 0.1),
    redis: figure("infrastructure", 0.002),
  },
  cpuMsPerRequest: 0.462,
  peakRssMb: 100,
  databasePerRequest: {
    commits: 0.01,
    rowsInserted: 2,
    rowsUpdated: 0.5,
    rowsDeleted: 0,
    blocksRead: 0,
    walBytes: 800,
  },
};

describe("scaling arithmetic", () => {
  it("turns CPU ms per request into cores at a rate, and cores into single-threaded processes", () => {
    expect(coresAt(0.2, 50_000)).toBe(10);
    expect(processesFor(10, 0.6)).toBe(17);
    expect(processesFor(0, 0.6)).toBe(1);
  });

  it("lists the components largest first", () => {
    expect(components(row).map((entry) => entry.name)).toEqual([
      "edge",
      "postgresql",
      "billing",
      "generations",
      "kafka",
      "redis",
      "keys",
    ]);
  });

  it("plans replicas, partitions and service cores for 50,000 req/s from the row's figures", () => {
    const lines = plan(row).lines;
    const line = (prefix: string): string | undefined => lines.find((text) => text.startsWith(prefix));
    // 0.2 ms × 50,000 / 1000 = 10 cores; ⌈10 / 0.6⌉ = 17 replicas of 3,000 req/s each.
    expect(line("edge:")).toContain(
      "= 10.00 cores → ⌈10.00 / 0.6⌉ = 17 single-threaded replicas (3000 req/s each",
    );
    // billing 0.07 → 3.5 cores → 6; generations 0.05 → 2.5 → 5.
    expect(line("billing:")).toContain("= 6 single-threaded replicas");
    expect(line("generations:")).toContain("= 5 single-threaded replicas");
    // max(6 consumers, 50,000 / 5,000 = 10) = 10 partitions.
    expect(line("usage topic partitions:")).toBe(
      "usage topic partitions: max(consumer replicas 6, 50000 events/s ÷ 5000 per partition = 10) = 10",
    );
    // Partitions never fewer than the consumer replicas that share them.
    const roomy = plan(row, { ...ASSUMPTIONS, eventsPerPartition: 50_000 }).lines;
    expect(roomy.find((text) => text.startsWith("usage topic partitions:"))).toMatch(/= 1\) = 6$/);
    expect(line("postgresql:")).toContain("= 5.00 cores busy → 8.33 cores at 60%");
    expect(line("redis:")).toContain("= 0.10 cores busy → 0.17 cores at 60% (single-threaded: 1 shard(s))");
    // Kafka: 0.04 × 50 = 2 cores → 3.33 at 60% → × 3 replicas = 10 cores.
    expect(line("kafka:")).toContain(
      "replication factor 3, the bench's broker has 1: 10.00 cores across the brokers",
    );
    // 500 WAL flushes/s + 800 B × 50,000 / 8 KiB = 4,883 WAL pages/s, twice (data pages): 10,266 IOPS.
    expect(line("postgresql write IOPS")).toMatch(/= 10266 IOPS$/);
    expect(line("postgresql writes:")).toContain("500 commits/s");
    expect(line("postgresql writes:")).toContain("= 125000 row writes/s");
  });

  it("plans the rows and index entries the run wrote, by table", () => {
    const tableWrites = {
      rowsPerRequest: 2,
      indexEntriesPerRequest: 6,
      byTable: {
        "billing.ledger_entries": { rows: 1, indexEntries: 3 },
        "generations.generations": { rows: 1, indexEntries: 3 },
      },
    };
    const line = plan({ ...row, tableWrites }).lines.find((text) =>
      text.startsWith("postgresql rows and index entries:"),
    );
    expect(line).toContain("= 100000 rows/s and 300000 index entries/s");
    expect(line).toContain("billing.ledger_entries 1.00 / 3.00, generations.generations 1.00 / 3.00");
    expect(plan(row).lines.some((text) => text.startsWith("postgresql rows and index entries:"))).toBe(false);
  });

  it("states the freshness of each row that sampled it", () => {
    const figure = { samples: 750, unresolved: 0, p50: 120.4, p99: 640.6, queries: 400 };
    const lines = freshnessLines([
      { ...row, freshness: { generation: figure, ledger: { ...figure, p99: 900 } } },
      undefined,
    ]);
    expect(lines).toEqual([
      "Freshness at chat saturation c=128 (3000 req/s): answer → generation record p50 120 / p99 641 ms (750 sampled, 0 never readable); answer → ledger row p50 120 / p99 900 ms (750 sampled, 0 never readable).",
    ]);
  });
});
