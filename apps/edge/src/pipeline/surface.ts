import type { ResponseIdentity } from "../translate/openai/chat-response.js";
import type { UsageRender } from "../translate/openai/usage.js";
import type { ChunkWire, CompletionWire } from "../translate/openai/wire.js";
import type { ApiType } from "../usage/generation.js";
import type { StreamFraming } from "./sse-writer.js";

/**
 * Renders canonical stream chunks in one client surface's stream format, remembering what metering
 * needs. Frames are returned as text ("" when a chunk produces nothing).
 */
export interface StreamRenderer {
  chunk(chunk: ChunkWire): string;
  /** An error after the first byte, in the surface's own in-band form. */
  error(message: string, code: string | undefined): string;
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
