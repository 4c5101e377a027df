import { performance } from "node:perf_hooks";
import { cpuSeconds, rssMb } from "./proc.js";
import type { Target } from "./targets/target.js";

export interface ResourceUse {
  /** CPU of all the target's processes over the scenario's wall time (100 = one full core). */
  cpuPercent: number;
  /** The same, per process (the split plane's four apps). */
  cpuByProcess: Record<string, number>;
  /** Highest RSS of the target's measured process (the edge for the split plane). */
  peakRssMb: number;
}

/** Runs `work` while sampling the target's RSS every 250 ms and its processes' CPU time at both ends. */
export async function withResources<T>(target: Target, work: () => Promise<T>): Promise<T & ResourceUse> {
  const pids = target.pids();
  const processes = Object.entries(target.processes());
  const rss = (): number => pids.reduce((sum, pid) => sum + rssMb(pid), 0);
  const cpu = (): number[] => processes.map(([, pid]) => cpuSeconds(pid));
  let peakRssMb = rss();
  const sampler = setInterval(() => {
    peakRssMb = Math.max(peakRssMb, rss());
  }, 250);
  const cpuBefore = cpu();
  const started = performance.now();
  try {
    const result = await work();
    const seconds = (performance.now() - started) / 1000;
    peakRssMb = Math.max(peakRssMb, rss());
    const cpuAfter = cpu();
    const cpuByProcess = Object.fromEntries(
      processes.map(([name], index) => [
        name,
        Math.round((((cpuAfter[index] ?? 0) - (cpuBefore[index] ?? 0)) / seconds) * 100),
      ]),
    );
    const cpuPercent = Object.values(cpuByProcess).reduce((sum, value) => sum + value, 0);
    return { ...result, cpuPercent, cpuByProcess, peakRssMb };
  } finally {
    clearInterval(sampler);
  }
}
