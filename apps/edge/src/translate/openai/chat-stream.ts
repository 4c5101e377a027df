import { type GatewayError, openAiStreamError } from "@gw/errors";
import type { ChunkScan, Span } from "../../canonical/chunk-scan.js";
import { type ChunkWire, chunkWireSchema, outputTexts } from "../../canonical/wire.js";
import { DetachedTexts } from "../detached-texts.js";
import type { FrameBytes } from "../frame-bytes.js";
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

  /** Raw relay: the chunks' `choices` texts, decoded only when metering estimates. */
  private readonly rawChoices = new DetachedTexts();
  private createdRaw = "";
  /** The provider's fingerprint as JSON text, "" until a chunk carried one (the member is then left out). */
  private fingerprintJson = "";
  private readonly rawPrefix: string;
  private readonly modelJson: string;
  private readonly providerJson: string;
  /** Byte relay: the `choices` texts as Latin-1 (the bytes as they came), decoded only when metering estimates. */
  private readonly latin1Choices = new DetachedTexts();
  private envelopeBytes: Buffer | undefined;
  private fingerprintLatin1 = "";
  /** The chunk's own `provider` member as Latin-1, "" = ours. */
  private providerLatin1 = "";

  constructor(private readonly identity: ResponseIdentity) {
    this.created = identity.created;
    this.rawPrefix = `data: {"id":${JSON.stringify(identity.generationId)},"object":"chat.completion.chunk","created":`;
    this.modelJson = JSON.stringify(identity.model);
    this.providerJson = JSON.stringify(identity.provider);
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

  /**
   * One upstream chunk relayed as the provider wrote it: only the envelope is spliced in front (our
   * id, object, created, model, provider, fingerprint) and the upstream's members other than those and
   * `usage` follow as the provider's own bytes. Nothing is parsed but the id (once) and a finish
   * reason; the generated text is kept as the raw `choices` text and decoded only if metering has to
   * estimate (the provider reported no usage).
   */
  raw(data: string, scan: ChunkScan): string {
    const { created, fingerprint, id, finishReason, provider, rest } = scan;
    if (created && isNumberText(data, created) && !sameText(data, created, this.createdRaw)) {
      this.createdRaw = data.slice(created.start, created.end);
      this.created = Number(this.createdRaw);
    }
    if (fingerprint && data.charCodeAt(fingerprint.start) === QUOTE)
      if (!sameText(data, fingerprint, this.fingerprintJson)) {
        this.fingerprintJson = data.slice(fingerprint.start, fingerprint.end);
        this.fingerprint = JSON.parse(this.fingerprintJson) as string;
      }
    if (this.upstream === undefined && id && data.charCodeAt(id.start) === QUOTE)
      this.upstream = JSON.parse(data.slice(id.start, id.end)) as string;
    if (finishReason)
      this.nativeFinishReason = JSON.parse(data.slice(finishReason.start, finishReason.end)) as string;
    if (scan.choices) this.rawChoices.add(data.slice(scan.choices.start, scan.choices.end));
    let frame = `${this.rawPrefix}${this.created},"model":${this.modelJson},"provider":${
      provider ? data.slice(provider.start, provider.end) : this.providerJson
    }${this.fingerprintMember()}`;
    for (let index = 0; index < rest.length; index += 2)
      frame += `,${data.slice(rest[index], rest[index + 1])}`;
    return `${frame}}\n\n`;
  }

  /**
   * `raw` on the provider's bytes (the byte relay): the same envelope, kept as bytes and rebuilt only
   * when `created`, the fingerprint or the provider change (normally never after the first chunk), so
   * a frame costs its four pieces and no string is built from the provider's content.
   */
  rawBytes(bytes: Buffer, start: number, text: string, scan: ChunkScan, out: FrameBytes): void {
    const { created, fingerprint, id, finishReason, provider, rest } = scan;
    let stale = this.envelopeBytes === undefined;
    if (created && isNumberText(text, created) && !sameText(text, created, this.createdRaw)) {
      this.createdRaw = text.slice(created.start, created.end);
      this.created = Number(this.createdRaw);
      stale = true;
    }
    if (fingerprint && text.charCodeAt(fingerprint.start) === QUOTE)
      if (!sameText(text, fingerprint, this.fingerprintLatin1)) {
        this.fingerprintLatin1 = text.slice(fingerprint.start, fingerprint.end);
        this.fingerprintJson = bytes.toString("utf8", start + fingerprint.start, start + fingerprint.end);
        this.fingerprint = JSON.parse(this.fingerprintJson) as string;
        stale = true;
      }
    if (provider ? !sameText(text, provider, this.providerLatin1) : this.providerLatin1 !== "") {
      this.providerLatin1 = provider ? text.slice(provider.start, provider.end) : "";
      stale = true;
    }
    if (this.upstream === undefined && id && text.charCodeAt(id.start) === QUOTE)
      this.upstream = JSON.parse(bytes.toString("utf8", start + id.start, start + id.end)) as string;
    if (finishReason)
      this.nativeFinishReason = JSON.parse(
        bytes.toString("utf8", start + finishReason.start, start + finishReason.end),
      ) as string;
    if (scan.choices) this.latin1Choices.add(text.slice(scan.choices.start, scan.choices.end));
    if (stale || this.envelopeBytes === undefined) {
      const providerJson = provider
        ? bytes.toString("utf8", start + provider.start, start + provider.end)
        : this.providerJson;
      this.envelopeBytes = Buffer.from(
        `${this.rawPrefix}${this.created},"model":${this.modelJson},"provider":${providerJson}${this.fingerprintMember()}`,
      );
    }
    out.add(this.envelopeBytes);
    for (let index = 0; index < rest.length; index += 2) {
      out.add(COMMA);
      out.addSpan(bytes, start + (rest[index] ?? 0), start + (rest[index + 1] ?? 0));
    }
    out.add(FRAME_END);
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
    const relayed = this.latin1Choices.drain().map((text) => Buffer.from(text, "latin1").toString("utf8"));
    for (const choices of [...this.rawChoices.drain(), ...relayed]) {
      const parsed = chunkWireSchema.safeParse({ choices: JSON.parse(choices) });
      for (const choice of parsed.success ? (parsed.data.choices ?? []) : [])
        this.texts.push(...outputTexts(choice.delta));
    }
    return this.texts;
  }

  private envelope() {
    return {
      id: this.identity.generationId,
      object: "chat.completion.chunk",
      created: this.created,
      model: this.identity.model,
      provider: this.identity.provider,
      ...(this.fingerprint === null ? {} : { system_fingerprint: this.fingerprint }),
    };
  }

  /**
   * The provider's fingerprint once a chunk carried one; until then no member at all. Anthropic, Gemini
   * and most hosts send none, and `@openrouter/sdk`'s chunk schema (`system_fingerprint:
   * z.string().optional()`) rejects a null, so `chat.send({stream: true})` would throw on the first chunk.
   */
  private fingerprintMember(): string {
    return this.fingerprintJson === "" ? "" : `,"system_fingerprint":${this.fingerprintJson}`;
  }
}

/** The OpenAI Chat Completions surface. */
export const CHAT_SURFACE: Surface = {
  apiType: "chat",
  renderJson: renderCompletion,
  stream: (identity) => new ChatStreamRewriter(identity),
};

const QUOTE = 34;
const COMMA = Buffer.from(",");
const FRAME_END = Buffer.from("}\n\n");

/** Whether the value at `span` is a JSON number (`created` of any other type is ignored, as before). */
function isNumberText(data: string, span: Span): boolean {
  const first = data.charCodeAt(span.start);
  return first === 45 || (first >= 48 && first <= 57);
}

function sameText(data: string, span: Span, known: string): boolean {
  return span.end - span.start === known.length && data.startsWith(known, span.start);
}
