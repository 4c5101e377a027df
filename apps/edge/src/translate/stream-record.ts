import type { ChunkWire } from "../canonical/wire.js";
import { outputTexts } from "../canonical/wire.js";

type Choice = NonNullable<ChunkWire["choices"]>[number];

/**
 * What a single-choice stream renderer (Anthropic, Gemini) remembers for metering: the upstream id,
 * the finish reason and the generated text. `note` records a chunk and hands back its first choice.
 */
export abstract class StreamRecord {
  protected finish: string | undefined;
  private upstream: string | undefined;
  private readonly texts: string[] = [];

  protected note(chunk: ChunkWire): Choice | undefined {
    this.upstream ??= chunk.id;
    const choice = chunk.choices?.find((entry) => (entry.index ?? 0) === 0);
    if (!choice) return undefined;
    this.texts.push(...outputTexts(choice.delta));
    if (choice.finish_reason) this.finish = choice.finish_reason;
    return choice;
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
}
