import { EventStreamCodec } from "@smithy/core/event-streams";
import { fromUtf8, toUtf8 } from "@smithy/core/serde";
import { sleep, writeFlushed } from "../core/http.js";
import type { ExchangeContext } from "../core/server.js";

/** One event of Bedrock's stream: its `:event-type` and JSON payload. */
export interface StreamedEvent {
  readonly type: string;
  readonly payload: Record<string, unknown>;
}

const codec = new EventStreamCodec(toUtf8, fromUtf8);

/**
 * One `application/vnd.amazon.eventstream` message (AWS event stream encoding: prelude with total and
 * header lengths and its CRC-32, typed headers, payload, message CRC-32), built by the AWS SDK's codec.
 * Events carry `:event-type`, `:content-type` and `:message-type: event`, as Bedrock sends them.
 */
export function eventFrame(event: StreamedEvent): Uint8Array {
  const header = (value: string) => ({ type: "string" as const, value });
  return codec.encode({
    headers: {
      ":event-type": header(event.type),
      ":content-type": header("application/json"),
      ":message-type": header("event"),
    },
    body: Buffer.from(JSON.stringify(event.payload), "utf8"),
  });
}

/**
 * Streams the events as binary frames, honouring `slow-stream` (a delay between frames) and
 * `drop-mid-stream` (the socket destroyed after N frames, before the stream's end).
 */
export async function respondEventStream(
  ctx: ExchangeContext,
  events: readonly StreamedEvent[],
): Promise<void> {
  const { res, steering, signal } = ctx;
  res.writeHead(200, {
    "content-type": "application/vnd.amazon.eventstream",
    "x-amzn-requestid": ctx.requestId,
  });
  res.flushHeaders();
  const dropAt =
    steering.dropAfter === null
      ? null
      : Math.max(
          0,
          Math.min(
            steering.dropAfter < 0 ? Math.floor(events.length / 2) : steering.dropAfter,
            events.length - 1,
          ),
        );
  for (const [index, event] of events.entries()) {
    if (index === dropAt) {
      res.destroy();
      return;
    }
    if (index > 0 && steering.chunkDelayMs > 0 && !(await sleep(steering.chunkDelayMs, signal))) return;
    if (signal.aborted) return;
    await writeFlushed(res, Buffer.from(eventFrame(event)));
  }
  res.end();
}
