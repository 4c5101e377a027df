import type { AttemptSignals } from "../http.js";
import type { StreamEvent } from "../types.js";
import { OpenAiEventStream } from "./event-stream.js";

export { mapSseEvent, parseSseEvent } from "./stream-map.js";

/**
 * Upstream SSE bytes → canonical stream events (`OpenAiEventStream`): pulled one network read at a
 * time so the client's pace (backpressure) reaches the upstream socket, or relayed as bytes. Ends at
 * `[DONE]`; a network failure mid-stream becomes an error event, except when the client itself went
 * away.
 */
export function openAiStreamEvents(
  body: AsyncIterable<Uint8Array>,
  signals: AttemptSignals,
): AsyncIterable<StreamEvent> {
  return new OpenAiEventStream(body, signals);
}
