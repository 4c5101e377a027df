import type { ChatRequest } from "../canonical/chat-request.js";
import type { ChunkScan } from "../canonical/chunk-scan.js";
import type { NativeWebSearch } from "../canonical/plugins.js";
import type { TokenUsage } from "../canonical/tokens.js";
import type { ChunkWire, CompletionWire } from "../canonical/wire.js";
import type { UpstreamFailure } from "./failure.js";
import type { UpstreamResponse } from "./http.js";
import type { ProviderSettings, UpstreamTimeouts } from "./settings.js";

export type { NativeWebSearch } from "../canonical/plugins.js";

export type ApiFormat = "openai" | "anthropic" | "gemini" | "bedrock";

/** How an endpoint's native search is sent and priced: the search's format and the model it runs on. */
export interface NativeSearchTarget {
  readonly format: ApiFormat;
  /** The model's own name (a Vertex resource path's last segment), which its search price follows. */
  readonly model: string;
}

/** One upstream chat call, already planned: the request in canonical (OpenAI) form and the provider's model name. */
export interface ChatCall {
  request: ChatRequest;
  upstreamModel: string;
  stream: boolean;
  /**
   * The endpoint's `supported_parameters`: an OpenAI-compatible host is sent only those of the request's
   * parameters (the rest are dropped, as OpenRouter does). Absent = send everything.
   */
  supportedParameters?: readonly string[];
  /**
   * The endpoint's maximum output tokens (0 or absent = not published): the request's `max_tokens` is
   * already lowered to it, and a format that requires `max_tokens` (Anthropic's) is sent it when the
   * caller set none.
   */
  outputCap?: number;
  /** Aborted when the client goes away; the adapter adds its own timeouts. */
  signal: AbortSignal;
  /** The web plugin served by the provider's own search (pipeline/web-native.ts); absent = none. */
  webSearch?: NativeWebSearch | undefined;
}

/** A non-streamed answer in canonical form. */
export interface CanonicalCompletion {
  body: CompletionWire;
  upstreamId: string | undefined;
  usage: TokenUsage | undefined;
  nativeFinishReason: string | undefined;
}

/** What a provider stream yields once mapped to canonical form. */
export type StreamEvent =
  /** A chunk with content for the client (never a usage-only chunk). */
  | { type: "chunk"; chunk: ChunkWire }
  /**
   * The same from an OpenAI-format host, unparsed: the event's JSON text as received and where its
   * members sit, so the chat surface relays the bytes (other surfaces parse it, `parseScannedChunk`).
   * Its `usage` member, if any, is also reported as a usage event.
   */
  | { type: "raw"; data: string; scan: ChunkScan }
  /** The upstream's usage totals, however it reported them. */
  | { type: "usage"; usage: TokenUsage }
  /**
   * The provider's own web searches the answer has shown so far (Anthropic's `server_tool_use` blocks,
   * Gemini's `groundingMetadata` queries): what a search is billed on when the usage never comes.
   */
  | { type: "searches"; count: number }
  /** The upstream reported an error inside the stream. */
  | { type: "error"; message: string; code: string | undefined };

/**
 * Where a relayed stream goes, one upstream read at a time (see `RelayableEvents.relay`): content
 * chunks as the provider's bytes, everything else as events, then `flush` once per read.
 */
export interface StreamRelayTarget {
  /**
   * An OpenAI-format content chunk as received: its JSON is `bytes[start, start + text.length)`;
   * `text` is the same bytes read as Latin-1 (one character per byte, so `scan`'s offsets are byte
   * offsets from `start`; JSON's structure is ASCII, so the scan is the same as on the decoded text).
   */
  raw(bytes: Buffer, start: number, text: string, scan: ChunkScan): void;
  /** Any other event; after an error event the stream stops. */
  event(event: StreamEvent): void;
  /** One read's frames are in: false = the client is full, `resume()` once it drained. */
  flush(): boolean;
  /** The stream is over: `[DONE]`, the body's end, an error event, a failure, or `stop()`. Called once. */
  end(): void;
}

/** A stream that can also be pushed (the byte relay) instead of pulled one event at a time. */
export interface RelayableEvents extends AsyncIterable<StreamEvent> {
  relay(target: StreamRelayTarget): void;
  resume(): void;
  /** Ends the stream early (the client left or the consumer gave up): the rest is read off or dropped. */
  stop(): void;
  /** Puts an event taken with `next()` back in front (the attempts' first-event peek). */
  unshift(event: StreamEvent): void;
}

export function isRelayable(events: AsyncIterable<StreamEvent>): events is RelayableEvents {
  return typeof (events as Partial<RelayableEvents>).relay === "function";
}

export type ChatResult =
  | { ok: true; stream: false; status: number; completion: CanonicalCompletion }
  | { ok: true; stream: true; status: number; events: AsyncIterable<StreamEvent> }
  | { ok: false; failure: UpstreamFailure };

export interface ChatProvider {
  complete(call: ChatCall): Promise<ChatResult>;
}

/** One upstream embeddings call: texts (or, where the host takes them, token arrays). */
export interface EmbedCall {
  input: readonly (string | readonly number[])[];
  upstreamModel: string;
  dimensions: number | undefined;
  user: string | undefined;
  /** Gemini's retrieval hints; other providers have no such field and ignore them. */
  taskType: string | undefined;
  title: string | undefined;
  signal: AbortSignal;
}

/** Vectors in input order, with the provider's usage when it reported any. */
export interface CanonicalEmbeddings {
  vectors: number[][];
  usage: TokenUsage | undefined;
}

export type EmbedResult =
  | { ok: true; status: number; embeddings: CanonicalEmbeddings }
  | { ok: false; failure: UpstreamFailure };

export interface EmbeddingsProvider {
  embed(call: EmbedCall): Promise<EmbedResult>;
}

/**
 * A provider adapter: one per configured upstream. Each surface it can serve is a capability; a
 * missing capability is planned around (`unsupported` says why), never a crash.
 */
export interface ProviderAdapter {
  readonly id: string;
  readonly apiFormat: ApiFormat;
  readonly isDemo: boolean;
  readonly chat: ChatProvider | undefined;
  /** Absent for providers without an embeddings API (Anthropic). */
  readonly embeddings?: EmbeddingsProvider;
  /** Native calls for the provider proxy: the caller's request with this adapter's credential added. */
  readonly proxy?: ProxyTransport;
  /**
   * The adapter sends the web plugin's native search (`ChatCall.webSearch`): `true` in its own format
   * (Anthropic's, Gemini's and the OpenAI-compatible base), or per upstream model where one adapter
   * speaks two formats (Vertex: Gemini's `googleSearch` on its Gemini models, nothing on Claude). Absent
   * on adapters that do not (Azure, Bedrock: their chat APIs have no web search), so their endpoints
   * never serve it natively, whatever the catalogue lists: a search not sent but promised would be a
   * silent drop. See `nativeSearchTarget`.
   */
  readonly nativeWebSearch?: boolean | ((upstreamModel: string) => NativeSearchTarget | undefined);
  /** Why a surface this adapter lacks is unavailable, for the planner's exclusion reasons. */
  readonly unsupported: string | undefined;
  close(): Promise<void>;
}

/** One native call through the provider proxy; the headers carry no credential of the caller's. */
export interface ProxyCall {
  method: "GET" | "POST";
  /** The native path (and query) as the client sent it after `/{provider}`. */
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
  /** Aborted when the client goes away; the transport adds the provider's timeouts. */
  signal: AbortSignal;
}

export interface ProxyTransport {
  /** The provider's response, unread, or the failure when none arrived. Never throws. */
  send(call: ProxyCall): Promise<UpstreamResponse | UpstreamFailure>;
}

/** Builds a provider's adapter from its settings; one per provider id in the registry. */
export type ProviderFactory = (settings: ProviderSettings, timeouts: UpstreamTimeouts) => ProviderAdapter;
