import { CATALOG } from "./catalog.js";
import type { CatalogData, Pricing } from "./types.js";
import { parseModelId } from "./variants.js";

/**
 * Checks the invariants the rest of the system relies on and returns every violation (empty when sound).
 * Seeding refuses a catalogue with problems; the unit tests keep the bundled data at zero.
 */
export function validateCatalog(data: CatalogData = CATALOG): string[] {
  const problems: string[] = [];
  const providers = new Map(data.providers.map((p) => [p.id, p]));
  if (providers.size !== data.providers.length) problems.push("duplicate provider ids");
  if (new Set(data.models.map((m) => m.id)).size !== data.models.length) problems.push("duplicate model ids");

  problems.push(...aliasProblems(data));
  for (const m of data.models) {
    const at = `model ${m.id}`;
    const { variant } = parseModelId(m.id);
    if (variant !== null && variant !== "free")
      problems.push(`${at}: :${variant} is a routing variant, not an entry`);
    if (!m.id.startsWith(`${m.author}/`)) problems.push(`${at}: author ${m.author} is not the id prefix`);
    if (m.endpoints.length === 0) problems.push(`${at}: no endpoints`);
    const seen = new Set<string>();
    for (const e of m.endpoints) {
      const where = `${at} on ${e.providerId}`;
      const provider = providers.get(e.providerId);
      if (!provider) problems.push(`${where}: unknown provider`);
      // Real models must never be answered by the fake demo server, and the demo serves only its own models.
      else if (provider.isDemo !== (m.author === "demo"))
        problems.push(`${where}: demo provider/model mismatch`);
      if (seen.has(e.providerId)) problems.push(`${where}: duplicate endpoint`);
      seen.add(e.providerId);
      if (e.contextLength <= 0) problems.push(`${where}: context length must be positive`);
      if (m.kind === "embedding" && (e.maxCompletionTokens !== 0 || e.pricing.completionPico !== 0n)) {
        problems.push(`${where}: embeddings have no completion tokens`);
      }
      if (m.kind === "chat" && (e.maxCompletionTokens <= 0 || e.maxCompletionTokens > e.contextLength)) {
        problems.push(`${where}: max completion tokens must be within (0, context]`);
      }
      if (Object.values(e.pricing).some((p) => p < 0n)) problems.push(`${where}: negative price`);
      if (m.isFree && !isZero(e.pricing)) problems.push(`${where}: a :free model must cost nothing`);
      if (!m.isFree && m.author === "demo" && isZero(e.pricing))
        problems.push(`${where}: demo must be priced`);
    }
  }
  return problems;
}

const ALIAS = /^[a-z0-9][a-z0-9._-]*\/[\x21-\x7e]{1,200}$/;

/** Aliases are `<author>/<name>` ids of their own: unique, never a model's id, never a variant. */
function aliasProblems(data: CatalogData): string[] {
  const problems: string[] = [];
  const ids = new Set(data.models.map((m) => m.id));
  const seen = new Map<string, string>();
  for (const m of data.models) {
    for (const alias of m.aliases) {
      const at = `alias ${alias} of ${m.id}`;
      if (!ALIAS.test(alias)) problems.push(`${at}: not an <author>/<name> id`);
      if (ids.has(alias)) problems.push(`${at}: is a model id`);
      if (parseModelId(alias).variant !== null) problems.push(`${at}: has a variant suffix`);
      const other = seen.get(alias);
      if (other !== undefined) problems.push(`${at}: also names ${other}`);
      seen.set(alias, m.id);
    }
  }
  return problems;
}

function isZero(pricing: Pricing): boolean {
  return Object.values(pricing).every((p) => p === 0n);
}
