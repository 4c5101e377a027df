import type { ChatRequest } from "../canonical/chat-request.js";
import type { CatalogSnapshot } from "../catalog/snapshot.js";

/**
 * The catalogue id behind a model name as a native SDK sends it: the provider's own name without the
 * author prefix (`claude-sonnet-4`), its dated form (`claude-sonnet-4-20250514`, the endpoint's upstream
 * name), a bare alias (`claude-3-5-haiku-latest`, on any surface), Gemini's `models/` prefix, or a full
 * `<author>/<slug>` id. A `:variant` suffix is kept. An unknown name comes back unchanged, so the
 * planner answers it with its usual 404.
 */
export function nativeModelId(snapshot: CatalogSnapshot, name: string, authors: readonly string[]): string {
  const bare = name.replace(/^models\//, "");
  if (bare.includes("/") || snapshot.model(bare)) return bare;
  const colon = bare.lastIndexOf(":");
  const base = colon === -1 ? bare : bare.slice(0, colon);
  const variant = colon === -1 ? "" : bare.slice(colon);
  const found = resolveBase(snapshot, base, authors);
  return found ? `${found}${variant}` : bare;
}

function resolveBase(
  snapshot: CatalogSnapshot,
  base: string,
  authors: readonly string[],
): string | undefined {
  for (const author of authors) if (snapshot.model(`${author}/${base}`)) return `${author}/${base}`;
  const models = snapshot.allModels();
  const rank = (id: string) => {
    const index = authors.indexOf(id.split("/")[0] ?? "");
    return index === -1 ? authors.length : index;
  };
  const matches = models
    .filter(
      (model) =>
        slug(model.id) === base ||
        model.endpoints.some((endpoint) => endpoint.upstreamModel === base) ||
        // Another surface's bare alias (`claude-3-5-haiku-latest` on the Gemini routes, issue 30).
        model.aliases.some((alias) => slug(alias) === base),
    )
    .map((model) => model.id)
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  return matches[0];
}

/** A native model name (`claude-sonnet-4`, dated, or a full id) → our catalogue id, fallbacks too. */
export function withNativeModels(
  snapshot: CatalogSnapshot,
  chat: ChatRequest,
  authors: readonly string[],
): ChatRequest {
  const resolved: ChatRequest = { ...chat, model: nativeModelId(snapshot, chat.model, authors) };
  if (chat.models) resolved.models = chat.models.map((name) => nativeModelId(snapshot, name, authors));
  return resolved;
}

function slug(id: string): string {
  return id.slice(id.indexOf("/") + 1);
}
