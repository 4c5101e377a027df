import { performance } from "node:perf_hooks";
import { cpuSeconds, rssMb } from "./proc.js";
import type { Target } from "./targets/target.js";

export interface ResourceUse {
  /** CPU of the target's processes over the scenario's wall time (100 = one full core). */
  cpuPercent: number;
  peakRssMb: number;
}

/** Runs `work` while sampling the target's RSS every 250 ms and its CPU time at both ends. */
export async function withResources<T>(target: Target, work: () => Promise<T>): Promise<T & ResourceUse> {
  const pids = target.pids();
  const cpu = (): number => pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
  const rss = (): number => pids.reduce((sum, pid) => sum + rssMb(pid), 0);
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
    return { ...result, cpuPercent: ((cpu() - cpuBefore) / seconds) * 100, peakRssMb };
  } finally {
    clearInterval(sampler);
  }
}
