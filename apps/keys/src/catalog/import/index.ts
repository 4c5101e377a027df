import { DEFAULT_MAX_JSON_DEPTH, exceedsDepth } from "@gw/http";
import type { CatalogContent } from "../content.js";
import type { ParsedImport } from "./common.js";
import { parseLiteLlm } from "./litellm.js";
import { parseOpenRouter } from "./openrouter.js";

export type { ImportFormat, ParsedImport } from "./common.js";
export { MAX_IMPORT_ENTRIES } from "./common.js";

export interface ParseImportOptions {
  format: string;
  current: CatalogContent;
  skipUnknownProviders?: boolean | undefined;
  /** OpenRouter format only: the provider the listed models are served through. */
  providerId?: string | undefined;
}

/** Import files are a few levels deep; the bound every JSON body has (a deeper price was a 500). */
const MAX_IMPORT_DEPTH = DEFAULT_MAX_JSON_DEPTH;

/** Reads an import file of either format against the catalogue as it is now. */
export function parseImport(text: string, options: ParseImportOptions): ParsedImport {
  // Before JSON.parse: the checks below walk and print values recursively (issue 33: a price nested
  // 20,000 deep overflowed the stack in a problem's JSON.stringify).
  if (exceedsDepth(text, MAX_IMPORT_DEPTH))
    return refused(`content nests arrays or objects deeper than ${MAX_IMPORT_DEPTH} levels`);
  const knownProviders = new Set(options.current.providers.map((provider) => provider.id));
  const common = { knownProviders, skipUnknownProviders: options.skipUnknownProviders };
  if (options.format === "litellm") return parseLiteLlm(text, { ...common, current: options.current });
  if (options.format === "openrouter")
    return parseOpenRouter(text, { ...common, providerId: options.providerId });
  return { models: [], skipped: [], problems: [`unknown format ${options.format}: litellm or openrouter`] };
}

function refused(problem: string): ParsedImport {
  return { models: [], skipped: [], problems: [problem] };
}
