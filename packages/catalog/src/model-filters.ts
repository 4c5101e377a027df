import type { OpenRouterModel } from "./model-object.js";

/**
 * OpenRouter's use-case categories (`GET /api/v1/models?category=`, the values `@openrouter/sdk` 1.3 names).
 * They rank models by what OpenRouter's users send them; this catalogue has no such usage data and every
 * model in it is general-purpose, so a known category keeps the whole list and an unknown one is a 400.
 */
export const MODEL_CATEGORIES = [
  "programming",
  "roleplay",
  "marketing",
  "marketing/seo",
  "technology",
  "science",
  "translation",
  "legal",
  "finance",
  "health",
  "trivia",
  "academia",
] as const;

export interface ModelFilters {
  /** A model is listed only when it supports every one of these request parameters. */
  supportedParameters: readonly string[];
  category: string | undefined;
}

export type ParsedFilters =
  | { ok: true; filters: ModelFilters }
  | { ok: false; field: string; message: string };

const PARAMETER = /^[a-z][a-z0-9_]{0,63}$/;
const MAX_PARAMETERS = 32;

/** Reads `?supported_parameters=a,b` and `?category=` from an Express query; other parameters are ignored. */
export function parseModelFilters(query: Record<string, unknown>): ParsedFilters {
  const parameters = query.supported_parameters;
  const category = query.category;
  if (parameters !== undefined && typeof parameters !== "string") {
    return { ok: false, field: "supported_parameters", message: "expected one comma-separated string" };
  }
  if (category !== undefined && typeof category !== "string") {
    return { ok: false, field: "category", message: "expected one string" };
  }
  const names =
    parameters === undefined || parameters === "" ? [] : parameters.split(",").map((n) => n.trim());
  if (names.length > MAX_PARAMETERS || names.some((name) => !PARAMETER.test(name))) {
    return {
      ok: false,
      field: "supported_parameters",
      message: `expected at most ${MAX_PARAMETERS} parameter names (lower case, digits, _), comma-separated`,
    };
  }
  if (category !== undefined && !(MODEL_CATEGORIES as readonly string[]).includes(category)) {
    return { ok: false, field: "category", message: `expected one of ${MODEL_CATEGORIES.join(", ")}` };
  }
  return { ok: true, filters: { supportedParameters: names, category } };
}

export function filterModels(models: OpenRouterModel[], filters: ModelFilters): OpenRouterModel[] {
  return models.filter((model) =>
    filters.supportedParameters.every((name) => model.supported_parameters.includes(name)),
  );
}
