import { readFileSync } from "node:fs";
import { type ChildApp, startChild, waitForHttp, waitForOutput } from "@gw/testing/processes";

/** A target's OS process, as the bench started it. */
export type BenchProcess = ChildApp;

export { startChild as startProcess, waitForHttp, waitForOutput };

/** Linux's clock ticks per second for /proc/<pid>/stat times (USER_HZ, 100 on every mainstream kernel). */
const CLOCK_TICKS = 100;

/** CPU seconds (user + system) the process has used so far. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // The command name is in parentheses and may hold spaces: count fields after its closing one.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** Resident set size in MB from /proc/<pid>/status. */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const line = /VmRSS:\s+(\d+) kB/.exec(status);
  return line ? Number(line[1]) / 1024 : 0;
}

export function loadAverage(): string {
  return readFileSync("/proc/loadavg", "utf8").trim();
}
