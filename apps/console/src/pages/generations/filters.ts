/**
 * The Generations page's filters, as the form holds them ("" = any) and as the list route's query takes
 * them (`GET /api/v1/generations?api_key_hash=&model=&from=&to=&cursor=&limit=`). Bare dates go to the
 * API as they are: it reads `from` as that UTC day's start and `to` as including that whole day.
 */
export interface GenerationFilters {
  apiKeyHash: string;
  model: string;
  /** YYYY-MM-DD or "". */
  from: string;
  /** YYYY-MM-DD or "". */
  to: string;
  /** A provider id, or "" (absent: ""). */
  provider?: string;
  /** completed, error, cancelled, or "" (absent: ""). */
  status?: string;
}

export const NO_FILTERS: GenerationFilters = {
  apiKeyHash: "",
  model: "",
  from: "",
  to: "",
  provider: "",
  status: "",
};

/** How a request ended, as the list route filters it (`status`), with the Status column's words. */
export const STATUS_OPTIONS = [
  { value: "completed", label: "Completed" },
  { value: "error", label: "Error" },
  { value: "cancelled", label: "Cancelled" },
] as const;
type StatusValue = (typeof STATUS_OPTIONS)[number]["value"];

export interface GenerationListQuery {
  limit: number;
  cursor?: string;
  api_key_hash?: string;
  model?: string;
  from?: string;
  to?: string;
  provider?: string;
  status?: StatusValue;
}

export const PAGE_SIZE = 25;

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Only the filters that are set, trimmed; an empty filter is left out rather than sent as "". */
export function filtersToQuery(
  filters: GenerationFilters,
  cursor?: string,
  limit = PAGE_SIZE,
): GenerationListQuery {
  const query: GenerationListQuery = { limit };
  if (cursor) query.cursor = cursor;
  const hash = filters.apiKeyHash.trim();
  if (hash) query.api_key_hash = hash;
  const model = filters.model.trim();
  if (model) query.model = model;
  if (filters.from) query.from = filters.from;
  if (filters.to) query.to = filters.to;
  const provider = filters.provider?.trim();
  if (provider) query.provider = provider;
  const status = STATUS_OPTIONS.find((option) => option.value === filters.status)?.value;
  if (status) query.status = status;
  return query;
}

/** A message for a range the API would refuse, so the form says it before asking; undefined when fine. */
export function filtersProblem(filters: GenerationFilters): string | undefined {
  for (const [label, value] of [
    ["From", filters.from],
    ["To", filters.to],
  ] as const) {
    if (value !== "" && !DATE.test(value)) return `${label}: enter a date as YYYY-MM-DD.`;
  }
  // `to` includes its whole day, so from == to is one day and only from > to is empty.
  if (filters.from && filters.to && filters.from > filters.to) return "From must be on or before To.";
  return undefined;
}

/** The filters from the page's URL (`?model=&key=&from=&to=`), so a filtered view can be shared. */
export function filtersFromSearch(search: URLSearchParams): GenerationFilters {
  return {
    apiKeyHash: search.get("key") ?? "",
    model: search.get("model") ?? "",
    from: search.get("from") ?? "",
    to: search.get("to") ?? "",
    provider: search.get("provider") ?? "",
    status: search.get("status") ?? "",
  };
}

/** Writes the filters into the URL's parameters, keeping the others (e.g. `id`) and dropping empty ones. */
export function filtersIntoSearch(filters: GenerationFilters, search: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(search);
  const pairs: Array<[string, string]> = [
    ["key", filters.apiKeyHash.trim()],
    ["model", filters.model.trim()],
    ["from", filters.from],
    ["to", filters.to],
    ["provider", filters.provider?.trim() ?? ""],
    ["status", filters.status ?? ""],
  ];
  for (const [name, value] of pairs) {
    if (value) next.set(name, value);
    else next.delete(name);
  }
  return next;
}
