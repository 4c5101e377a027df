import { type GatewayError, openAiStreamError } from "@gw/errors";
import { type ChunkWire, type CompletionWire, outputTexts } from "../../canonical/wire.js";
import type { ResponseIdentity } from "../openai/chat-response.js";
import { renderUsage, type UsageRender } from "../openai/usage.js";
import { SSE_DONE, sseData } from "../sse.js";
import type { StreamRenderer, Surface } from "../surface.js";

type Json = Record<string, unknown>;

function envelope(identity: ResponseIdentity, created: number, fingerprint: string | null): Json {
  return {
    id: identity.generationId,
    object: "text_completion",
    created,
    model: identity.model,
    provider: identity.provider,
    system_fingerprint: fingerprint,
  };
}

/** A canonical chat completion in the legacy text_completion shape (message text → `text`). */
export function renderTextCompletion(
  body: CompletionWire,
  identity: ResponseIdentity,
  usage: UsageRender,
): Json {
  const created = typeof body.created === "number" ? body.created : identity.created;
  const fingerprint = typeof body.system_fingerprint === "string" ? body.system_fingerprint : null;
  return {
    ...envelope(identity, created, fingerprint),
    choices: body.choices.map((choice, index) => ({
      text: choice.message?.content ?? "",
      index: choice.index ?? index,
      logprobs: null,
      finish_reason: choice.finish_reason ?? null,
    })),
    usage: renderUsage(usage),
  };
}

/** Chat chunks as text_completion chunks; ends with a usage chunk (`choices: []`) and `[DONE]`. */
export class TextCompletionStream implements StreamRenderer {
  private finish: string | undefined;
  private upstream: string | undefined;
  private fingerprint: string | null = null;
  private created: number;
  private readonly texts: string[] = [];

  constructor(private readonly identity: ResponseIdentity) {
    this.created = identity.created;
  }

  chunk(chunk: ChunkWire): string {
    this.upstream ??= chunk.id;
    if (typeof chunk.created === "number") this.created = chunk.created;
    if (typeof chunk.system_fingerprint === "string") this.fingerprint = chunk.system_fingerprint;
    const choices = (chunk.choices ?? []).flatMap((choice) => {
      if (choice.finish_reason) this.finish ??= choice.finish_reason;
      this.texts.push(...outputTexts(choice.delta));
      const text = choice.delta?.content ?? "";
      if (!text && !choice.finish_reason) return [];
      return [
        { text, index: choice.index ?? 0, logprobs: null, finish_reason: choice.finish_reason ?? null },
      ];
    });
    if (choices.length === 0) return "";
    return sseData({ ...this.envelope(), choices });
  }

  error(failure: GatewayError): string {
    return sseData({
      ...this.envelope(),
      error: openAiStreamError(failure),
      choices: [{ text: "", index: 0, logprobs: null, finish_reason: "error" }],
    });
  }

  end(usage: UsageRender): string {
    return sseData({ ...this.envelope(), choices: [], usage: renderUsage(usage) }) + SSE_DONE;
  }

  finishReason(): string | undefined {
    return this.finish;
  }

  upstreamId(): string | undefined {
    return this.upstream;
  }

  outputTexts(): string[] {
    return this.texts;
  }

  private envelope(): Json {
    return envelope(this.identity, this.created, this.fingerprint);
  }
}

/** The legacy completions surface, metered as api_type "completions". */
export const COMPLETIONS_SURFACE: Surface = {
  apiType: "completions",
  renderJson: renderTextCompletion,
  stream: (identity) => new TextCompletionStream(identity),
};
