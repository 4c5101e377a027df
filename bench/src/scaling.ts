import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { meteringMsPerRequest } from "./figures.js";
import { bestSaturation, type Report } from "./report.js";
import type { Row } from "./scenarios.js";

/** The plan's inputs that are choices, not measurements (docs/scaling.md says why each). */
export interface Assumptions {
  targetRps: number;
  utilisation: number;
  eventsPerPartition: number;
  /** Copies of each event in production Kafka (the bench's single broker keeps one). */
  kafkaReplication: number;
}

export const ASSUMPTIONS: Assumptions = {
  /** Requests per second the plan is for. */
  targetRps: 50_000,
  /** Highest planned CPU utilisation of a core: headroom for bursts, GC pauses and a lost replica. */
  utilisation: 0.6,
  /** Usage events per second one partition of the usage topic is planned for (per consumer replica). */
  eventsPerPartition: 5_000,
  kafkaReplication: 3,
};

export interface Component {
  name: string;
  role: "app" | "infrastructure";
  msPerRequest: number;
}

/** CPU ms per request of each counted process tree of a row, largest first. */
export function components(row: Row): Component[] {
  return Object.entries(row.cpu)
    .filter(([, figure]) => figure.msPerRequest !== undefined)
    .map(([name, figure]) => ({ name, role: figure.role, msPerRequest: figure.msPerRequest ?? 0 }))
    .sort((a, b) => b.msPerRequest - a.msPerRequest);
}

/** Cores busy at `rps` for a component costing `ms` of CPU per request: ms × rps / 1000. */
export const coresAt = (ms: number, rps: number): number => (ms * rps) / 1000;

/** Single-threaded processes (a Node app's event loop, a Redis shard) needed: ⌈cores / utilisation⌉. */
export const processesFor = (cores: number, utilisation: number): number =>
  Math.max(1, Math.ceil(cores / utilisation));

export interface Plan {
  source: { scenario: string; rps: number; requests: number };
  lines: string[];
}

/** The 50,000 req/s plan from one split-plane row, every number with its arithmetic. */
export function plan(row: Row, assumptions: Assumptions = ASSUMPTIONS): Plan {
  const { targetRps, utilisation, eventsPerPartition } = assumptions;
  // Each line carries its own arithmetic, so the doc's numbers can be checked against the run.
  const ms = (name: string): number => row.cpu[name]?.msPerRequest ?? 0;
  const fmt = (value: number, digits = 3): string => value.toFixed(digits);
  const lines: string[] = [];
  const replicas: Record<string, number> = {};
  for (const app of ["edge", "billing", "generations", "keys"]) {
    const cores = coresAt(ms(app), targetRps);
    replicas[app] = processesFor(cores, utilisation);
    lines.push(
      `${app}: ${fmt(ms(app))} ms/request × ${targetRps} req/s = ${fmt(cores, 2)} cores → ⌈${fmt(cores, 2)} / ${utilisation}⌉ = ${replicas[app]} single-threaded replicas (${fmt((1000 * utilisation) / Math.max(ms(app), 1e-9), 0)} req/s each at ${utilisation * 100}%)`,
    );
  }
  // billing and generations (its records, and its endpoint health in a group of its own) consume the
  // usage topic: a group has at most one active consumer per partition. keys consumes none of it.
  const consumers = Math.max(replicas.billing ?? 1, replicas.generations ?? 1);
  const byRate = Math.ceil(targetRps / eventsPerPartition);
  const partitions = Math.max(consumers, byRate);
  lines.push(
    `usage topic partitions: max(consumer replicas ${consumers}, ${targetRps} events/s ÷ ${eventsPerPartition} per partition = ${byRate}) = ${partitions}`,
  );
  for (const service of ["kafka", "postgresql", "redis"]) {
    const cores = coresAt(ms(service), targetRps);
    const extra =
      service === "redis"
        ? ` (single-threaded: ${processesFor(cores, utilisation)} shard(s))`
        : service === "kafka"
          ? ` (× ${assumptions.kafkaReplication} for replication factor ${assumptions.kafkaReplication}, the bench's broker has 1: ${fmt((cores / utilisation) * assumptions.kafkaReplication, 2)} cores across the brokers)`
          : "";
    lines.push(
      `${service}: ${fmt(ms(service))} ms/request × ${targetRps} req/s = ${fmt(cores, 2)} cores busy → ${fmt(cores / utilisation, 2)} cores at ${utilisation * 100}%${extra}`,
    );
  }
  const db = row.databasePerRequest;
  if (db) {
    lines.push(
      `postgresql writes: ${fmt(db.commits, 4)} commits/request × ${targetRps} = ${fmt(db.commits * targetRps, 0)} commits/s (WAL flushes); ${fmt(db.rowsInserted, 2)} rows inserted + ${fmt(db.rowsUpdated, 2)} updated per request = ${fmt((db.rowsInserted + db.rowsUpdated) * targetRps, 0)} row writes/s; ${fmt(db.walBytes, 0)} WAL bytes/request (cluster-wide) = ${fmt((db.walBytes * targetRps) / 2 ** 20, 1)} MiB/s of WAL`,
    );
    const tables = row.tableWrites;
    if (tables) {
      lines.push(
        `postgresql rows and index entries: ${fmt(tables.rowsPerRequest, 2)} rows + ${fmt(tables.indexEntriesPerRequest, 2)} index entries written per request × ${targetRps} = ${fmt(tables.rowsPerRequest * targetRps, 0)} rows/s and ${fmt(tables.indexEntriesPerRequest * targetRps, 0)} index entries/s (by table: ${Object.entries(
          tables.byTable,
        )
          .map(([name, figures]) => `${name} ${fmt(figures.rows, 2)} / ${fmt(figures.indexEntries, 2)}`)
          .join(", ")})`,
      );
    }
    const walPages = (db.walBytes * targetRps) / 8192;
    lines.push(
      `postgresql write IOPS (upper bound): ${fmt(db.commits * targetRps, 0)} WAL flushes/s + ${fmt(walPages, 0)} WAL pages/s (WAL MiB/s ÷ 8 KiB) + as many data-page writes as WAL pages (checkpoints) = ${fmt(db.commits * targetRps + 2 * walPages, 0)} IOPS`,
    );
  }
  return { source: { scenario: row.scenario, rps: row.rps, requests: row.requests }, lines };
}

const metering = (row: Row | undefined): string => (row && meteringMsPerRequest(row)?.toFixed(3)) ?? "—";

/** Answer → generation record / ledger row readable, for each row that sampled it. */
export function freshnessLines(rows: Array<Row | undefined>): string[] {
  return rows.flatMap((row) => {
    const fresh = row?.freshness;
    if (!row || !fresh) return [];
    const pair = (figure: typeof fresh.generation): string =>
      `p50 ${figure.p50.toFixed(0)} / p99 ${figure.p99.toFixed(0)} ms (${figure.samples} sampled, ${figure.unresolved} never readable)`;
    return [
      `Freshness at ${row.scenario} (${row.rps.toFixed(0)} req/s): answer → generation record ${pair(fresh.generation)}; answer → ledger row ${pair(fresh.ledger)}.`,
    ];
  });
}

/** The per-component table and the plan, as Markdown for docs/scaling.md. */
export function scalingMarkdown(report: Report, file: string): string {
  const row = bestSaturation(report.rows, "edge (split)");
  if (!row) return `${file}: no split-plane saturation row (run with the split plane's services reachable)`;
  const rate = report.rows.find(
    (candidate) => candidate.target === "edge (split)" && /^chat @ \d+ req\/s$/.test(candidate.scenario),
  );
  const portkey = bestSaturation(report.rows, "portkey");
  const embedded = bestSaturation(report.rows, "edge (embedded)");
  const lines = [
    `Source: ${file} (${report.date}${report.quick ? ", --quick" : ""}; ${report.machine.cores} × ${report.machine.cpus}; load average before ${report.loadAverage.before}, after ${report.loadAverage.after})`,
    `Row: "${row.scenario}", edge (split): ${row.rps.toFixed(0)} req/s, ${row.requests} requests completed${rate ? `; beside it "${rate.scenario}": ${rate.rps.toFixed(0)} req/s` : ""}`,
    "",
    `| component | role | CPU ms per request (saturation) | CPU ms per request (${rate?.scenario ?? "rate"}) | cores per 10,000 req/s (saturation) |`,
    "| --- | --- | ---: | ---: | ---: |",
  ];
  for (const entry of components(row)) {
    const atRate = rate?.cpu[entry.name]?.msPerRequest;
    lines.push(
      `| ${entry.name} | ${entry.role} | ${entry.msPerRequest.toFixed(3)} | ${atRate === undefined ? "—" : atRate.toFixed(3)} | ${coresAt(entry.msPerRequest, 10_000).toFixed(2)} |`,
    );
  }
  const total = (candidate: Row | undefined): string => candidate?.cpuMsPerRequest?.toFixed(3) ?? "—";
  lines.push(
    `| **all** | | **${total(row)}** | ${total(rate)} | ${coresAt(row.cpuMsPerRequest ?? 0, 10_000).toFixed(2)} |`,
  );
  lines.push(
    "",
    `Metering (kafka + postgresql + redis + billing + generations + keys): ${metering(row)} ms/request at saturation, ${metering(rate)} at ${rate?.scenario ?? "the rate"}; edge alone ${row.cpu.edge?.msPerRequest?.toFixed(3) ?? "—"}.`,
    ...freshnessLines([rate, row]),
    "",
    `For comparison at saturation, all processes: edge (embedded) ${total(embedded)} ms/request, Portkey ${total(portkey)} ms/request.`,
  );
  const computed = plan(row);
  lines.push("", `Plan for ${ASSUMPTIONS.targetRps} req/s:`, ...computed.lines.map((line) => `- ${line}`));
  return lines.join("\n");
}

/** `node bench/dist/scaling.js [result.json]`: the newest bench/results/*.json by default. */
function main(): void {
  const resultsDir = join(dirname(fileURLToPath(import.meta.url)), "..", "results");
  const file =
    process.argv[2] ??
    join(
      resultsDir,
      readdirSync(resultsDir)
        .filter((name) => name.endsWith(".json"))
        .sort()
        .at(-1) ?? "",
    );
  const report = JSON.parse(readFileSync(file, "utf8")) as Report;
  process.stdout.write(`${scalingMarkdown(report, file)}\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
