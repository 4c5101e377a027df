import type { ProcessCpu } from "./accounting/cpu.js";

/** The per-tree CPU of one row, as far as these figures need it. */
type CpuOf = { cpu: Record<string, Pick<ProcessCpu, "msPerRequest">> };

/** The process trees whose CPU is metering's, not the edge's (issue 27's figure). */
export const METERING_TREES = ["kafka", "postgresql", "redis", "billing", "generations", "keys"] as const;

/** The usage consumers (their CPU beside the broker's, to choose the producer's linger and batch). */
export const CONSUMER_TREES = ["billing", "generations"] as const;

/** The edge process's own CPU ms per completed request (per stream, in a stream row). */
export function edgeMsPerRequest(row: CpuOf): number | undefined {
  return row.cpu.edge?.msPerRequest;
}

/**
 * The sum of the named trees' CPU ms per request; undefined when none of them was counted in the row (a
 * target without them), so an absent service shows as "—", not as 0.
 */
export function treesMsPerRequest(row: CpuOf, trees: readonly string[]): number | undefined {
  const present = trees.flatMap((name) => {
    const value = row.cpu[name]?.msPerRequest;
    return value === undefined ? [] : [value];
  });
  return present.length === 0 ? undefined : present.reduce((sum, value) => sum + value, 0);
}

/** Metering CPU per request: Kafka + PostgreSQL + Redis + billing + generations + keys. */
export const meteringMsPerRequest = (row: CpuOf): number | undefined =>
  treesMsPerRequest(row, METERING_TREES);

/**
 * Edge CPU per relayed frame, in µs: what a stream costs the edge beyond a plain request, spread over
 * its frames. (edge ms per stream − edge ms per plain chat request) × 1000 / frames per stream.
 */
export function edgeUsPerFrame(
  streamMs: number | undefined,
  requestMs: number | undefined,
  framesPerStream: number,
): number | undefined {
  if (streamMs === undefined || requestMs === undefined || framesPerStream <= 0) return undefined;
  return ((streamMs - requestMs) * 1000) / framesPerStream;
}

/**
 * Edge CPU per KB of prompt, in µs: the extra CPU of a large-prompt request over the tiny one, per KB of
 * request body more. (edge ms at the size − edge ms tiny) × 1000 / (KB at the size − KB tiny).
 */
export function edgeUsPerPromptKb(
  sizedMs: number | undefined,
  tinyMs: number | undefined,
  sizedKb: number,
  tinyKb: number,
): number | undefined {
  if (sizedMs === undefined || tinyMs === undefined || sizedKb <= tinyKb) return undefined;
  return ((sizedMs - tinyMs) * 1000) / (sizedKb - tinyKb);
}

/** Live heap per open stream, in KB: the heap after a full GC with the streams open, less before, per stream. */
export function heapKbPerStream(beforeBytes: number, openBytes: number, open: number): number | undefined {
  if (open <= 0) return undefined;
  return (openBytes - beforeBytes) / 1024 / open;
}
