import type { Counted } from "../accounting/cpu.js";
import type { DatabaseProbe } from "../accounting/database.js";

/** The targets of one run, in the order they run each scenario (interleaved). */
export type TargetName = "direct" | "nginx" | "node floor" | "edge (split)" | "edge (embedded)" | "portkey";

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
  database?: DatabaseProbe;
  /** The split plane's usage topic: which consumer groups read every event of it. */
  usage?: { brokers: string[]; topic: string };
  /** The measured process's inspector WebSocket (edges run with --inspect=127.0.0.1:0): its live heap. */
  inspectorUrl?: () => Promise<string | undefined>;
  stop(): Promise<void>;
}

const PROMPT = "Say hello to the bench";

/**
 * The request body every target gets (only the model name differs). With `bodyBytes`, the user message is
 * padded with words until the whole body is that many bytes (the prompt-size rows: 8 KB, 64 KB).
 */
export function chatBody(model: string, stream: boolean, bodyBytes?: number): string {
  const body = (content: string): string =>
    JSON.stringify({
      model,
      messages: [{ role: "user", content }],
      max_tokens: 16,
      ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
    });
  const tiny = body(PROMPT);
  if (!bodyBytes || bodyBytes <= tiny.length) return tiny;
  const words = " lorem ipsum dolor".repeat(Math.ceil((bodyBytes - tiny.length) / 18) + 1);
  return body(`${PROMPT}${words.slice(0, bodyBytes - tiny.length)}`);
}
