import { sendJson, sleep, writeFlushed } from "./http.js";
import type { ExchangeContext } from "./server.js";

/**
 * Sends a complete JSON response, honouring `drop-mid-stream`: then the full length is announced, half the
 * body is sent and the socket is destroyed, which clients see as a truncated response.
 */
export async function respondJson(
  ctx: ExchangeContext,
  status: number,
  body: unknown,
  contentType = "application/json",
): Promise<void> {
  if (ctx.steering.dropAfter === null) {
    sendJson(ctx.res, status, body, {}, contentType);
    return;
  }
  const bytes = Buffer.from(JSON.stringify(body));
  ctx.res.writeHead(status, { "content-type": contentType, "content-length": bytes.length });
  await writeFlushed(ctx.res, bytes.subarray(0, Math.floor(bytes.length / 2)));
  ctx.res.destroy();
}

export interface StreamOptions {
  readonly contentType: string;
  /** Written before the first frame (Gemini's JSON-array stream opens with `[`). */
  readonly prefix?: string;
  readonly suffix?: string;
}

/**
 * Sends pre-rendered frames one by one, honouring `slow-stream` (delay between frames) and `drop-mid-stream`
 * (destroy the socket after N frames, so the stream never reaches its end marker).
 */
export async function respondStream(
  ctx: ExchangeContext,
  frames: readonly string[],
  options: StreamOptions,
): Promise<void> {
  const { res, steering, signal } = ctx;
  res.writeHead(200, {
    "content-type": options.contentType,
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  res.flushHeaders();
  const dropAt = dropPoint(steering.dropAfter, frames.length);
  for (let i = 0; i < frames.length; i++) {
    if (i === dropAt) {
      res.destroy();
      return;
    }
    if (i > 0 && steering.chunkDelayMs > 0 && !(await sleep(steering.chunkDelayMs, signal))) return;
    if (signal.aborted) return;
    const frame = i === 0 && options.prefix ? options.prefix + frames[i] : frames[i];
    await writeFlushed(res, frame ?? "");
  }
  res.end(options.suffix ?? "");
}

function dropPoint(dropAfter: number | null, frameCount: number): number | null {
  if (dropAfter === null) return null;
  const wanted = dropAfter < 0 ? Math.floor(frameCount / 2) : dropAfter;
  // Always leave the end of the stream unsent: a drop that lets the stream complete is not a drop.
  return Math.max(0, Math.min(wanted, frameCount - 1));
}
