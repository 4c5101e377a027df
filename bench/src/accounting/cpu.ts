import { type ProcStat, snapshot, treeCpu } from "./proc-tree.js";

/** A process tree whose CPU a target is charged for, by its root pid. */
export interface Counted {
  name: string;
  pid: number;
  /** The target's own processes (apps), or the services they use (Kafka, PostgreSQL, Redis). */
  role: "app" | "infrastructure";
}

/** CPU seconds each counted tree has used so far (root + descendants, reaped ones included). */
export type CpuReading = Record<string, { own: number; descendants: number; live: number } | undefined>;

export function readCpu(counted: Counted[], processes: Map<number, ProcStat> = snapshot()): CpuReading {
  return Object.fromEntries(
    counted.map((entry) => {
      const tree = treeCpu(entry.pid, processes);
      return [
        entry.name,
        tree && { own: tree.ownSeconds, descendants: tree.descendantsSeconds, live: tree.liveDescendants },
      ];
    }),
  );
}

/** One counted tree's CPU over a scenario. */
export interface ProcessCpu {
  role: Counted["role"];
  /** CPU seconds of the whole tree between the two readings. */
  seconds: number;
  /** Of which the root process's own. */
  ownSeconds: number;
  /** Descendants alive at the end (PostgreSQL backends, embedded PostgreSQL under the standalone). */
  liveDescendants: number;
  /** Per core over the scenario's wall time (100 = one full core). */
  percent: number;
  /** `seconds` × 1000 / requests completed; undefined when none completed. */
  msPerRequest?: number;
}

/**
 * The difference of two readings, per tree, and per request completed. A tree whose root vanished (a
 * crash) counts what it used until the last reading that saw it: nothing, since there is one at each end.
 */
export function cpuBetween(
  counted: Counted[],
  before: CpuReading,
  after: CpuReading,
  wallSeconds: number,
  requests: number,
): Record<string, ProcessCpu> {
  return Object.fromEntries(
    counted.map((entry) => {
      const start = before[entry.name];
      const end = after[entry.name];
      const seconds = start && end ? end.own + end.descendants - (start.own + start.descendants) : 0;
      const ownSeconds = start && end ? end.own - start.own : 0;
      const figure: ProcessCpu = {
        role: entry.role,
        seconds,
        ownSeconds,
        liveDescendants: end?.live ?? 0,
        percent: wallSeconds > 0 ? (seconds / wallSeconds) * 100 : 0,
        ...(requests > 0 ? { msPerRequest: (seconds * 1000) / requests } : {}),
      };
      return [entry.name, figure];
    }),
  );
}

/** CPU ms per request completed over the given trees: (Σ CPU seconds) × 1000 / requests. */
export function msPerRequest(
  byProcess: Record<string, ProcessCpu>,
  requests: number,
  roles: Array<Counted["role"]> = ["app", "infrastructure"],
): number | undefined {
  if (requests <= 0) return undefined;
  const seconds = Object.values(byProcess)
    .filter((entry) => roles.includes(entry.role))
    .reduce((sum, entry) => sum + entry.seconds, 0);
  return (seconds * 1000) / requests;
}
