import type { Row } from "./scenarios.js";
import type { TargetName } from "./targets/target.js";

/** The split plane's usage topic: events published, each group's committed offsets, who read them all. */
export interface ConsumerGroupsFigure {
  target: string;
  topic: string;
  published: number;
  committed: Record<string, number>;
  readingAll: string[];
}

/** The saturation row with the highest throughput of a target (c=32 or c=128). */
export function bestSaturation(rows: Row[], target: TargetName): Row | undefined {
  return rows
    .filter((row) => row.scenario.includes("saturation") && row.target === target)
    .reduce<Row | undefined>((best, row) => (!best || row.rps > best.rps ? row : best), undefined);
}
