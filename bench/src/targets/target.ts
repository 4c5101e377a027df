import type { Counted } from "../accounting/cpu.js";
import type { DatabaseCounters } from "../accounting/database.js";

/** The targets of one run, in the order they run each scenario (interleaved). */
export type TargetName = "direct" | "edge (split)" | "edge (embedded)" | "portkey";

/** One thing under load: the upstream itself, our edge (split plane or embedded default), or Portkey's gateway. */
export interface Target {
  name: TargetName;
  /** What exactly ran, for the output (infrastructure, versions). */
  description: string;
  /** Absolute URL of the chat completions endpoint. */
  url: string;
  headers: Record<string, string>;
  model: string;
  /** The process whose RSS is reported (the edge itself for the split plane). */
  pids(): number[];
  /** Every process serving this target, by name: their CPU is summed (split plane: all four apps). */
  processes(): Record<string, number>;
  /**
   * The services this target's requests make work for (the split plane's Kafka broker, PostgreSQL and
   * Redis): their CPU is charged to it too. Empty for direct and Portkey, which use none.
   */
  services: Counted[];
  /** The split plane's own database: write counters per scenario (the scaling plan's write rates). */
  database?: { read(): Promise<DatabaseCounters> };
  stop(): Promise<void>;
}

/** The request body every target gets (only the model name differs). */
export function chatBody(model: string, stream: boolean): string {
  return JSON.stringify({
    model,
    messages: [{ role: "user", content: "Say hello to the bench" }],
    max_tokens: 16,
    ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
  });
}
