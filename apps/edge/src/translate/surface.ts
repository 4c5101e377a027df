import type { GatewayError } from "@gw/errors";
import type { ChunkScan } from "../canonical/chunk-scan.js";
import type { ApiType } from "../canonical/generation.js";
import type { ChunkWire, CompletionWire } from "../canonical/wire.js";
import type { FrameBytes } from "./frame-bytes.js";
import type { ResponseIdentity } from "./openai/chat-response.js";
import type { UsageRender } from "./openai/usage.js";

/** How a streamed body is framed: SSE by default; Gemini without `alt=sse` streams a JSON array. */
export interface StreamFraming {
  headers: Readonly<Record<string, string>>;
  /** Written while the upstream is silent; must be ignorable by the client's parser. */
  keepAlive: string;
}

/**
 * Renders canonical stream chunks in one client surface's stream format, remembering what metering
 * needs. Frames are returned as text ("" when a chunk produces nothing).
 */
export interface StreamRenderer {
  chunk(chunk: ChunkWire): string;
  /**
   * An OpenAI-format chunk as the provider sent it (see `scanChunk`), for a surface that relays it
   * without parsing; absent on surfaces that translate (they get it parsed, through `chunk`).
   */
  raw?(data: string, scan: ChunkScan): string;
  /**
   * The same relayed as bytes (the byte relay): the chunk's JSON is `bytes[start, start + text.length)`
   * and `text` is those bytes read as Latin-1, so `scan`'s offsets are byte offsets from `start`. The
   * frame is appended to `out`: our envelope, then the provider's own bytes.
   */
  rawBytes?(bytes: Buffer, start: number, text: string, scan: ChunkScan, out: FrameBytes): void;
  /** An error after the first byte, in the surface's own in-band form. */
  error(failure: GatewayError): string;
  /** Whatever closes the stream: usage and the end marker of the format. */
  end(usage: UsageRender): string;
  finishReason(): string | undefined;
  upstreamId(): string | undefined;
  outputTexts(): string[];
}

/** A client-facing API shape: how a canonical answer is written back, and what it is metered as. */
export interface Surface {
  apiType: ApiType;
  renderJson(body: CompletionWire, identity: ResponseIdentity, usage: UsageRender): unknown;
  stream(identity: ResponseIdentity): StreamRenderer;
  /** Server-sent events unless set. */
  framing?: StreamFraming;
}
