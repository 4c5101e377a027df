import { sendJson } from "../core/http.js";
import { hexId } from "../core/ids.js";
import type { ExchangeContext, ProviderError } from "../core/server.js";
import { sendExaError } from "./errors.js";

// Exa's `POST /search` (exa.ai/docs/reference/search, its OpenAPI `SearchRequest` and the 200 example):
// `{query, type?, numResults? (1-100, default 10), includeDomains?, excludeDomains?, contents?: {text?:
// true | {maxCharacters?, includeHtmlTags?}, highlights?, summary?, livecrawl?…}, …}` answered with
// `{requestId, searchType, results: [{id, url, title, publishedDate, author, text?}], costDollars}`.
// The fake is strict: a field outside the documented request is refused as INVALID_REQUEST_BODY, so a
// gateway sending an invented field finds out here rather than in production.

const SEARCH_FIELDS = new Set([
  "query",
  "additionalQueries",
  "type",
  "category",
  "userLocation",
  "numResults",
  "includeDomains",
  "excludeDomains",
  "startCrawlDate",
  "endCrawlDate",
  "startPublishedDate",
  "endPublishedDate",
  "includeText",
  "excludeText",
  "moderation",
  "contents",
  "context",
  "stream",
  "outputSchema",
  "systemPrompt",
]);
const CONTENTS_FIELDS = new Set([
  "text",
  "highlights",
  "summary",
  "livecrawl",
  "livecrawlTimeout",
  "maxAgeHours",
  "subpages",
  "subpageTarget",
  "extras",
  "context",
]);
const TEXT_FIELDS = new Set(["maxCharacters", "includeHtmlTags", "verbosity"]);
const SEARCH_TYPES = new Set(["neural", "fast", "auto", "deep-lite", "deep", "deep-reasoning", "instant"]);
const MAX_RESULTS = 100;
const DEFAULT_RESULTS = 10;
/** Exa's search price: $7 per 1,000 requests of up to 10 results, $1 per 1,000 further results (exa.ai/docs/admin/pricing). */
const BASE_PRICE = 0.007;
const EXTRA_RESULT_PRICE = 0.001;

interface SearchAsk {
  query: string;
  numResults: number;
  maxCharacters: number | undefined;
  withText: boolean;
  includeDomains: readonly string[] | undefined;
}

export function handleSearch(ctx: ExchangeContext): void {
  const ask = parseSearch(ctx.body);
  if ("status" in ask) {
    sendExaError(ctx, ask);
    return;
  }
  const results = Array.from({ length: ask.numResults }, (_, index) => result(ask, index + 1));
  const extra = Math.max(0, ask.numResults - 10);
  sendJson(ctx.res, 200, {
    requestId: ctx.requestId,
    searchType: "neural",
    results,
    costDollars: { total: round(BASE_PRICE + extra * EXTRA_RESULT_PRICE) },
  });
}

/**
 * One deterministic result: result N lives at `https://result-N.example.org/` (or on the first included
 * domain), so a test can make the model cite it. The text mentions the query, cut to `maxCharacters`.
 */
function result(ask: SearchAsk, n: number): Record<string, unknown> {
  const host = ask.includeDomains?.[(n - 1) % ask.includeDomains.length] ?? `result-${n}.example.org`;
  const url = `https://${host}/`;
  const text = `Result ${n} about ${ask.query}: a page the fake search found for this query.`;
  return {
    id: url,
    url,
    title: `Result ${n}: ${ask.query}`.slice(0, 120),
    publishedDate: "2026-01-15T00:00:00.000Z",
    author: `Author ${n}`,
    ...(ask.withText
      ? { text: ask.maxCharacters === undefined ? text : text.slice(0, ask.maxCharacters) }
      : {}),
  };
}

function parseSearch(body: unknown): SearchAsk | ProviderError {
  if (!isRecord(body)) return invalid("Request body must be a JSON object");
  const unknown = Object.keys(body).find((key) => !SEARCH_FIELDS.has(key));
  if (unknown !== undefined) return invalid(`Unrecognized key in body: '${unknown}'`);
  const { query, numResults, type, includeDomains } = body;
  if (typeof query !== "string" || query.trim() === "") return invalid("query: Required, a non-empty string");
  if (type !== undefined && !(typeof type === "string" && SEARCH_TYPES.has(type)))
    return invalid(`type: Invalid enum value '${String(type)}'`);
  const count = numResults ?? DEFAULT_RESULTS;
  if (typeof count !== "number" || !Number.isInteger(count) || count < 1 || count > MAX_RESULTS)
    return invalid(`numResults: must be an integer between 1 and ${MAX_RESULTS}`);
  if (includeDomains !== undefined && !isStringArray(includeDomains))
    return invalid("includeDomains: Expected an array of strings");
  const text = parseContents(body.contents);
  if ("status" in text) return text;
  return {
    query,
    numResults: count,
    ...text,
    includeDomains: includeDomains !== undefined && includeDomains.length > 0 ? includeDomains : undefined,
  };
}

function parseContents(
  contents: unknown,
): { withText: boolean; maxCharacters: number | undefined } | ProviderError {
  if (contents === undefined) return { withText: false, maxCharacters: undefined };
  if (!isRecord(contents)) return invalid("contents: Expected an object");
  const unknown = Object.keys(contents).find((key) => !CONTENTS_FIELDS.has(key));
  if (unknown !== undefined) return invalid(`Unrecognized key in body: 'contents.${unknown}'`);
  const { text } = contents;
  if (text === undefined || text === false) return { withText: false, maxCharacters: undefined };
  if (text === true) return { withText: true, maxCharacters: undefined };
  if (!isRecord(text)) return invalid("contents.text: Expected boolean or object");
  const unknownText = Object.keys(text).find((key) => !TEXT_FIELDS.has(key));
  if (unknownText !== undefined) return invalid(`Unrecognized key in body: 'contents.text.${unknownText}'`);
  const max = text.maxCharacters;
  if (max !== undefined && !(typeof max === "number" && Number.isInteger(max) && max > 0))
    return invalid("contents.text.maxCharacters: Expected a positive integer");
  return { withText: true, maxCharacters: max };
}

function invalid(message: string): ProviderError {
  return { status: 400, code: "INVALID_REQUEST_BODY", message };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

function round(dollars: number): number {
  return Math.round(dollars * 1e6) / 1e6;
}

export const newExaRequestId = (): string => hexId("", 16);
