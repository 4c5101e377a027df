import type { Model } from "../types.js";

// OpenRouter writes Claude's version with a dot where Anthropic's API names use a hyphen: Anthropic's
// `claude-haiku-4-5`, `claude-3-5-haiku` are OpenRouter's `anthropic/claude-haiku-4.5`,
// `anthropic/claude-3.5-haiku` (openrouter.ai/anthropic/claude-haiku-4.5; issue 30: OpenRouter's SDK
// suite asks for these ids). Other authors' ids already match OpenRouter's (`openai/gpt-4.1`,
// `google/gemini-2.5-flash`, and the open-weight models, which take OpenRouter's id in open-hosts-table).
const VERSION = /-(\d)-(\d)(?=$|-)/;

/** OpenRouter's id for a catalogue id when it differs, else undefined. */
export function openRouterId(id: string): string | undefined {
  if (!id.startsWith("anthropic/claude-")) return undefined;
  const dotted = id.replace(VERSION, "-$1.$2");
  return dotted === id ? undefined : dotted;
}

/** Each model with OpenRouter's id as an alias where it differs and names no other model. */
export function withOpenRouterIds(models: readonly Model[]): Model[] {
  const taken = new Set(models.flatMap((m) => [m.id, ...m.aliases]));
  return models.map((m) => {
    const alias = openRouterId(m.id);
    if (alias === undefined || taken.has(alias)) return m;
    taken.add(alias);
    return { ...m, aliases: [...m.aliases, alias] };
  });
}
