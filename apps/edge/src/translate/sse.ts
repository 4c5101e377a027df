/** SSE framing written to clients. Every frame ends with the blank line that dispatches it. */
export function sseData(payload: unknown): string {
  return `data: ${JSON.stringify(payload)}\n\n`;
}

export const SSE_DONE = "data: [DONE]\n\n";

/** A comment line: ignored by every SSE client, it keeps proxies and idle timers from closing the stream. */
export const SSE_KEEP_ALIVE = ": keep-alive\n\n";

export const SSE_HEADERS: Readonly<Record<string, string>> = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-cache",
  Connection: "keep-alive",
  // Tells nginx-style proxies not to buffer the stream.
  "X-Accel-Buffering": "no",
};
