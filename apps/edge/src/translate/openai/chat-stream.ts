import { type GatewayError, openAiStreamError } from "@gw/errors";
import { type ChunkWire, outputTexts } from "../../canonical/wire.js";
import { SSE_DONE, sseData } from "../sse.js";
import type { StreamRenderer, Surface } from "../surface.js";
import { type ResponseIdentity, renderCompletion } from "./chat-response.js";
import { renderUsage, type UsageRender } from "./usage.js";

/**
 * Rewrites an upstream chunk stream for an OpenAI-surface client, one chunk at a time: our id, model
 * and provider on every chunk; the upstream's usage chunk is replaced by ours at the end (with cost),
 * then `[DONE]`. It also remembers what metering needs: the finish reason and the generated text.
 */
export class ChatStreamRewriter implements StreamRenderer {
  private nativeFinishReason: string | undefined;
  private upstream: string | undefined;
  private readonly texts: string[] = [];
  private created: number;
  private fingerprint: string | null = null;

  constructor(private readonly identity: ResponseIdentity) {
    this.created = identity.created;
  }

  /** One upstream content chunk → one SSE frame. */
  chunk(chunk: ChunkWire): string {
    if (typeof chunk.created === "number") this.created = chunk.created;
    if (typeof chunk.system_fingerprint === "string") this.fingerprint = chunk.system_fingerprint;
    this.upstream ??= chunk.id;
    for (const choice of chunk.choices ?? []) {
      if (choice.finish_reason) this.nativeFinishReason = choice.finish_reason;
      this.texts.push(...outputTexts(choice.delta));
    }
    const {
      usage: _usage,
      id: _id,
      object: _object,
      created: _created,
      model: _model,
      system_fingerprint: _fingerprint,
      ...rest
    } = chunk;
    return sseData({ ...this.envelope(), ...rest });
  }

  /** The final usage chunk (`choices: []`, as OpenAI sends it with `include_usage`), then `[DONE]`. */
  end(usage: UsageRender): string {
    return sseData({ ...this.envelope(), choices: [], usage: renderUsage(usage) }) + SSE_DONE;
  }

  /**
   * An error after the first byte cannot change the status any more, so it ends the stream in-band:
   * a top-level `error` (openai-node throws on it; OpenRouter's shape, numeric code) and a choice
   * finishing with `error`.
   */
  error(failure: GatewayError): string {
    return sseData({
      ...this.envelope(),
      error: openAiStreamError(failure),
      choices: [{ index: 0, delta: { content: "" }, finish_reason: "error" }],
    });
  }

  finishReason(): string | undefined {
    return this.nativeFinishReason;
  }

  /** The provider's own id for the generation (its chunks' `id`), kept for the usage record. */
  upstreamId(): string | undefined {
    return this.upstream;
  }

  outputTexts(): string[] {
    return this.texts;
  }

  private envelope() {
    return {
      id: this.identity.generationId,
      object: "chat.completion.chunk",
      created: this.created,
      model: this.identity.model,
      provider: this.identity.provider,
      // The provider's fingerprint once a chunk carried one, null until then (as OpenRouter sends it).
      system_fingerprint: this.fingerprint,
    };
  }
}

/** The OpenAI Chat Completions surface. */
export const CHAT_SURFACE: Surface = {
  apiType: "chat",
  renderJson: renderCompletion,
  stream: (identity) => new ChatStreamRewriter(identity),
};
