import { performance } from "node:perf_hooks";
import {
  type Counted,
  type CpuReading,
  cpuBetween,
  msPerRequest,
  type ProcessCpu,
  readCpu,
} from "./accounting/cpu.js";
import { type DatabaseCounters, perRequest } from "./accounting/database.js";
import { type TableReading, type TableWrites, tableWrites } from "./accounting/table-writes.js";
import { rssMb } from "./proc.js";
import type { Target } from "./targets/target.js";

export interface ResourceUse {
  /** CPU of the target's own processes (apps) over the scenario's wall time (100 = one full core). */
  cpuPercent: number;
  /** Per core, per counted process tree: the apps and the services (kafka, postgresql, redis). */
  cpuByProcess: Record<string, number>;
  /** Every counted tree's CPU over the scenario: seconds, own/descendants, per request. */
  cpu: Record<string, ProcessCpu>;
  /** (Σ CPU seconds of every counted tree, apps and services) × 1000 / requests completed. */
  cpuMsPerRequest?: number;
  /** The same over the target's own processes only (the first round's figure). */
  appCpuMsPerRequest?: number;
  /** Highest RSS of the target's measured process (the edge for the split plane). */
  peakRssMb: number;
  /**
   * The load generator's CPU (this process: undici sending and reading every request) per request
   * completed, over the load's wall time: what any target's throughput shares the machine with.
   */
  generatorMsPerRequest?: number;
  /** The split plane's database, per request completed: commits, rows written, WAL bytes (cluster-wide). */
  databasePerRequest?: DatabaseCounters;
  /** The split plane's database, per request completed: rows and index entries written, by table. */
  tableWrites?: TableWrites;
}

/** PostgreSQL flushes an idle backend's statistics within 10 s (PGSTAT_IDLE_INTERVAL); wait that long. */
const STATS_FLUSH_MS = 11_000;

/** Every process tree a target is charged for: its apps, then the services its requests use. */
export function countedProcesses(target: Target): Counted[] {
  return [
    ...Object.entries(target.processes()).map(([name, pid]) => ({ name, pid, role: "app" as const })),
    ...target.services,
  ];
}

/** Idle enough: the apps together used under 3% of a core over the last window. */
const SETTLE_WINDOW_MS = 500;
const SETTLE_IDLE_FRACTION = 0.03;
const SETTLE_MAX_MS = 15_000;

/**
 * The reading taken once the target's apps are idle again (at most 15 s after the load ended): a usage
 * event published during the scenario is consumed (billing, generations) and written (PostgreSQL) shortly
 * after, and that CPU belongs to the requests that caused it, not to the next target's scenario.
 */
export async function settled(counted: Counted[]): Promise<CpuReading> {
  const apps = counted.filter((entry) => entry.role === "app");
  const appSeconds = (reading: CpuReading): number =>
    apps.reduce((sum, entry) => {
      const tree = reading[entry.name];
      return sum + (tree ? tree.own + tree.descendants : 0);
    }, 0);
  const deadline = performance.now() + SETTLE_MAX_MS;
  let last = readCpu(counted);
  while (performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, SETTLE_WINDOW_MS));
    const next = readCpu(counted);
    const busy = appSeconds(next) - appSeconds(last);
    last = next;
    if (busy < (SETTLE_WINDOW_MS / 1000) * SETTLE_IDLE_FRACTION) break;
  }
  return last;
}

interface DatabaseBefore {
  counters: DatabaseCounters;
  tables: TableReading;
}

/** Tables first, then the counters: the table reading's own queries fall outside the interval. */
async function databaseBefore(target: Target): Promise<DatabaseBefore | undefined> {
  if (!target.database) return undefined;
  const tables = await target.database.tables();
  return { tables, counters: await target.database.read() };
}

async function databaseUse(
  target: Target,
  before: DatabaseBefore | undefined,
  loadEndedAt: number,
  requests: number,
): Promise<Pick<ResourceUse, "databasePerRequest" | "tableWrites">> {
  if (!target.database || !before) return {};
  const wait = loadEndedAt + STATS_FLUSH_MS - performance.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  const counters = perRequest(before.counters, await target.database.read(), requests);
  const tables = tableWrites(before.tables, await target.database.tables(), requests);
  return {
    ...(counters ? { databasePerRequest: counters } : {}),
    ...(tables ? { tableWrites: tables } : {}),
  };
}

/**
 * Runs `work` while sampling the target's RSS every 250 ms, and the CPU of every counted process tree at
 * the start and once the apps are idle after it (a tree's reading includes the children that exited in
 * between: see `treeCpu`). Percentages are over the load's wall time; per-request figures over all of it.
 */
export async function withResources<T extends { requests: number }>(
  target: Target,
  work: () => Promise<T>,
): Promise<T & ResourceUse> {
  const pids = target.pids();
  const counted = countedProcesses(target);
  const rss = (): number => pids.reduce((sum, pid) => sum + rssMb(pid), 0);
  let peakRssMb = rss();
  const sampler = setInterval(() => {
    peakRssMb = Math.max(peakRssMb, rss());
  }, 250);
  const database = await databaseBefore(target);
  const cpuBefore = readCpu(counted);
  const started = performance.now();
  const generatorBefore = process.cpuUsage();
  try {
    const result = await work();
    const generator = process.cpuUsage(generatorBefore);
    const seconds = (performance.now() - started) / 1000;
    peakRssMb = Math.max(peakRssMb, rss());
    // The consumers may still be applying this scenario's usage events: their work is this target's.
    const cpuAfter = await settled(counted);
    const cpu = cpuBetween(counted, cpuBefore, cpuAfter, seconds, result.requests);
    const databaseFigures = await databaseUse(target, database, started + seconds * 1000, result.requests);
    const cpuByProcess = Object.fromEntries(
      Object.entries(cpu).map(([name, figure]) => [name, Math.round(figure.percent)]),
    );
    const cpuPercent = Object.values(cpu)
      .filter((figure) => figure.role === "app")
      .reduce((sum, figure) => sum + Math.round(figure.percent), 0);
    const all = msPerRequest(cpu, result.requests);
    const apps = msPerRequest(cpu, result.requests, ["app"]);
    return {
      ...result,
      cpuPercent,
      cpuByProcess,
      cpu,
      ...(all === undefined ? {} : { cpuMsPerRequest: all }),
      ...(apps === undefined ? {} : { appCpuMsPerRequest: apps }),
      peakRssMb,
      ...(result.requests > 0
        ? { generatorMsPerRequest: (generator.user + generator.system) / 1000 / result.requests }
        : {}),
      ...databaseFigures,
    };
  } finally {
    clearInterval(sampler);
  }
}
