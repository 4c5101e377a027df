import type { CatalogContent } from "../content.js";
import type { ParsedImport } from "./common.js";
import { parseLiteLlm } from "./litellm.js";
import { parseOpenRouter } from "./openrouter.js";

export type { ImportFormat, ParsedImport } from "./common.js";

export interface ParseImportOptions {
  format: string;
  current: CatalogContent;
  skipUnknownProviders?: boolean | undefined;
  /** OpenRouter format only: the provider the listed models are served through. */
  providerId?: string | undefined;
}

/** Reads an import file of either format against the catalogue as it is now. */
export function parseImport(text: string, options: ParseImportOptions): ParsedImport {
  const knownProviders = new Set(options.current.providers.map((provider) => provider.id));
  const common = { knownProviders, skipUnknownProviders: options.skipUnknownProviders };
  if (options.format === "litellm") return parseLiteLlm(text, { ...common, current: options.current });
  if (options.format === "openrouter")
    return parseOpenRouter(text, { ...common, providerId: options.providerId });
  return { models: [], skipped: [], problems: [`unknown format ${options.format}: litellm or openrouter`] };
}
