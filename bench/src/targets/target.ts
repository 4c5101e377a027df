/** One thing under load: the upstream itself, our edge, or Portkey's gateway. */
export interface Target {
  name: "direct" | "edge" | "portkey";
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
