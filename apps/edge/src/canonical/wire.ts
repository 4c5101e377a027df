import { z } from "zod";
import type { TokenUsage } from "./tokens.js";

// The edge's canonical chat form is OpenAI's wire format: providers map their responses into these
// shapes and each client surface renders from them. Schemas are loose: unknown fields ride along.

const count = z.number().int().nonnegative();

export const usageWireSchema = z.looseObject({
  prompt_tokens: count.optional(),
  completion_tokens: count.optional(),
  total_tokens: count.optional(),
  prompt_tokens_details: z
    .looseObject({
      cached_tokens: count.nullish(),
      cache_write_tokens: count.nullish(),
      audio_tokens: count.nullish(),
      image_tokens: count.nullish(),
      document_tokens: count.nullish(),
    })
    .nullish(),
  completion_tokens_details: z
    .looseObject({ reasoning_tokens: count.nullish(), audio_tokens: count.nullish() })
    .nullish(),
});

const toolCallWire = z.looseObject({
  function: z.looseObject({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish(),
});

const messageWire = z.looseObject({
  content: z.string().nullish(),
  refusal: z.string().nullish(),
  reasoning: z.string().nullish(),
  tool_calls: z.array(toolCallWire).nullish(),
});

export const completionWireSchema = z.looseObject({
  id: z.string().optional(),
  choices: z.array(
    z.looseObject({
      index: z.number().int().optional(),
      message: messageWire.nullish(),
      finish_reason: z.string().nullish(),
    }),
  ),
  usage: usageWireSchema.nullish(),
});

export const chunkWireSchema = z.looseObject({
  id: z.string().optional(),
  choices: z
    .array(
      z.looseObject({
        index: z.number().int().optional(),
        delta: messageWire.nullish(),
        finish_reason: z.string().nullish(),
      }),
    )
    .optional(),
  usage: usageWireSchema.nullish(),
  error: z.unknown().optional(),
});

export type UsageWire = z.infer<typeof usageWireSchema>;
export type CompletionWire = z.infer<typeof completionWireSchema>;
export type ChunkWire = z.infer<typeof chunkWireSchema>;

/** OpenAI usage → canonical counts; undefined when the object reports no token counts at all. */
export function usageFromWire(wire: UsageWire | null | undefined): TokenUsage | undefined {
  if (!wire || (wire.prompt_tokens === undefined && wire.completion_tokens === undefined)) return undefined;
  return {
    promptTokens: wire.prompt_tokens ?? 0,
    completionTokens: wire.completion_tokens ?? 0,
    cachedTokens: wire.prompt_tokens_details?.cached_tokens ?? 0,
    cacheWriteTokens: wire.prompt_tokens_details?.cache_write_tokens ?? 0,
    reasoningTokens: wire.completion_tokens_details?.reasoning_tokens ?? 0,
    ...mediaFromWire(wire),
  };
}

/** OpenAI's audio counts, and the image and document counts a translated Gemini usage carries. */
function mediaFromWire(wire: UsageWire): Partial<TokenUsage> {
  const media: Partial<TokenUsage> = {
    audioTokens: wire.prompt_tokens_details?.audio_tokens ?? 0,
    imageTokens: wire.prompt_tokens_details?.image_tokens ?? 0,
    documentTokens: wire.prompt_tokens_details?.document_tokens ?? 0,
    completionAudioTokens: wire.completion_tokens_details?.audio_tokens ?? 0,
  };
  return Object.fromEntries(Object.entries(media).filter(([, value]) => value > 0));
}

/** The generated text of a message or delta, for counting tokens when usage is missing. */
export function outputTexts(message: z.infer<typeof messageWire> | null | undefined): string[] {
  if (!message) return [];
  const texts: string[] = [];
  for (const text of [message.content, message.refusal, message.reasoning]) if (text) texts.push(text);
  for (const call of message.tool_calls ?? []) {
    if (call.function?.name) texts.push(call.function.name);
    if (call.function?.arguments) texts.push(call.function.arguments);
  }
  return texts;
}

/** Canonical counts → OpenAI's usage object, for completions translated from other formats. */
export function usageToWire(usage: TokenUsage): UsageWire {
  return {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.promptTokens + usage.completionTokens,
    prompt_tokens_details: {
      cached_tokens: usage.cachedTokens,
      cache_write_tokens: usage.cacheWriteTokens,
      ...(usage.audioTokens ? { audio_tokens: usage.audioTokens } : {}),
      ...(usage.imageTokens ? { image_tokens: usage.imageTokens } : {}),
      ...(usage.documentTokens ? { document_tokens: usage.documentTokens } : {}),
    },
    completion_tokens_details: {
      reasoning_tokens: usage.reasoningTokens,
      ...(usage.completionAudioTokens ? { audio_tokens: usage.completionAudioTokens } : {}),
    },
  };
}
