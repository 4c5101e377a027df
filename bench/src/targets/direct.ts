import type { BenchProcess } from "../proc.js";
import type { Target } from "./target.js";

export const UPSTREAM_KEY = "sk-bench-upstream";

/** The fake upstream called directly: the physical limit of this machine. */
export function directTarget(upstreamUrl: string, upstream: BenchProcess): Target {
  return {
    name: "direct",
    description: "the bench's fake upstream, called directly",
    url: `${upstreamUrl}/v1/chat/completions`,
    headers: { "content-type": "application/json", authorization: `Bearer ${UPSTREAM_KEY}` },
    model: "gpt-4o-mini",
    pids: () => (upstream.child.pid ? [upstream.child.pid] : []),
    processes: (): Record<string, number> => (upstream.child.pid ? { upstream: upstream.child.pid } : {}),
    services: [],
    // The upstream outlives the targets; the runner stops it.
    stop: async () => {},
  };
}
