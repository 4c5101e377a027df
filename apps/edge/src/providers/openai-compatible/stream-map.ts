import { scanChunk } from "../../canonical/chunk-scan.js";
import { chunkWireSchema, usageFromWire, usageWireSchema } from "../../canonical/wire.js";
import type { SseEvent } from "../sse.js";
import type { StreamEvent } from "../types.js";

// Built once: `nullish()` makes a new schema (zod initialises it on every call).
const NULLISH_USAGE = usageWireSchema.nullish();

const MALFORMED: StreamEvent = {
  type: "error",
  message: "the provider sent a malformed stream chunk",
  code: "protocol",
};

/**
 * One SSE event → zero or more events, without parsing the chunk: one structural scan finds its
 * members, content goes on as a `raw` event, and only a usage object (normally once, in the last
 * chunk) is parsed. Errors take the full parse, as before.
 */
export function mapSseEvent(event: SseEvent): StreamEvent[] | "done" {
  const data = event.data;
  if (data === "[DONE]" || data.trim() === "[DONE]") return "done";
  const scan = event.event === "error" ? undefined : scanChunk(data);
  if (!scan || scan.error !== undefined) return parseSseEvent(event);
  const events: StreamEvent[] = [];
  if (scan.hasChoices) events.push({ type: "raw", data, scan });
  if (scan.usage) {
    let json: unknown;
    try {
      json = JSON.parse(data.slice(scan.usage.start, scan.usage.end));
    } catch {
      return [MALFORMED];
    }
    const parsed = NULLISH_USAGE.safeParse(json);
    if (!parsed.success) return [MALFORMED];
    const usage = usageFromWire(parsed.data);
    if (usage) events.push({ type: "usage", usage });
  }
  return events;
}

/** One SSE event fully parsed into canonical events; a usage report is split from any content it rides on. */
export function parseSseEvent(event: SseEvent): StreamEvent[] | "done" {
  if (event.data.trim() === "[DONE]") return "done";
  let json: unknown;
  try {
    json = JSON.parse(event.data);
  } catch {
    return [{ type: "error", message: "the provider sent a malformed stream chunk", code: "protocol" }];
  }
  const parsed = chunkWireSchema.safeParse(json);
  if (!parsed.success) {
    return [{ type: "error", message: "the provider sent a malformed stream chunk", code: "protocol" }];
  }
  const chunk = parsed.data;
  if (event.event === "error" || chunk.error !== undefined) {
    return [{ type: "error", ...describeStreamError(chunk.error) }];
  }
  const events: StreamEvent[] = [];
  const usage = usageFromWire(chunk.usage);
  if (chunk.choices && chunk.choices.length > 0) {
    const { usage: _dropped, ...content } = chunk;
    events.push({ type: "chunk", chunk: content });
  }
  if (usage) events.push({ type: "usage", usage });
  return events;
}

function describeStreamError(error: unknown): { message: string; code: string | undefined } {
  if (typeof error === "object" && error !== null) {
    const message = "message" in error && typeof error.message === "string" ? error.message : undefined;
    const code =
      "code" in error && error.code !== null && error.code !== undefined ? String(error.code) : undefined;
    return { message: message ?? "the provider reported an error mid-stream", code };
  }
  return {
    message: typeof error === "string" ? error : "the provider reported an error mid-stream",
    code: undefined,
  };
}
