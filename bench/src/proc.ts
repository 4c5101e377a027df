import { readFileSync } from "node:fs";
import { type ChildApp, startChild, waitForHttp, waitForOutput } from "@gw/testing/processes";

/** A target's OS process, as the bench started it. */
export type BenchProcess = ChildApp;

export { startChild as startProcess, waitForHttp, waitForOutput };

/** Resident set size in MB from /proc/<pid>/status; 0 once the process is gone (a crashed target). */
export function rssMb(pid: number): number {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, "utf8");
  } catch {
    return 0;
  }
  const line = /VmRSS:\s+(\d+) kB/.exec(status);
  return line ? Number(line[1]) / 1024 : 0;
}

export function loadAverage(): string {
  return readFileSync("/proc/loadavg", "utf8").trim();
}
