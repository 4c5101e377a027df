import type { components } from "@gw/client";

export type ActivityItem = components["schemas"]["ActivityItem"];

/** The API keeps the last 30 UTC days (today included); the range control chooses within them. */
export const ACTIVITY_DAYS = 30;

export interface DateRange {
  /** Inclusive UTC days, `YYYY-MM-DD`. */
  from: string;
  to: string;
}

export interface Totals {
  spend: number;
  byokSpend: number;
  requests: number;
  promptTokens: number;
  completionTokens: number;
  reasoningTokens: number;
}

/** One category of a chart (a day, a model, a provider) with its figures. */
export interface Bucket {
  label: string;
  spend: number;
  requests: number;
}

/** `YYYY-MM-DD` of a Date, in UTC (the API's days are UTC days). */
export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The day `offset` days after `day` (negative: before). */
export function addDays(day: string, offset: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + offset);
  return utcDay(date);
}

/** Every day from `from` to `to`, inclusive, in order; empty when the range is reversed. */
export function daysBetween(range: DateRange): string[] {
  const days: string[] = [];
  for (let day = range.from; day <= range.to && days.length <= 366; day = addDays(day, 1)) days.push(day);
  return days;
}

/** The last `days` UTC days ending today. */
export function lastDays(today: string, days: number): DateRange {
  return { from: addDays(today, -(days - 1)), to: today };
}

/** The range the API can answer for: no earlier than 29 days before today, no later than today. */
export function clampRange(range: DateRange, today: string): DateRange {
  const earliest = addDays(today, -(ACTIVITY_DAYS - 1));
  const from = earlierOf(laterOf(range.from, earliest), today);
  const to = laterOf(earlierOf(range.to, today), from);
  return { from, to };
}

// `YYYY-MM-DD` strings order as their days do.
function earlierOf(a: string, b: string): string {
  return a <= b ? a : b;
}

function laterOf(a: string, b: string): string {
  return a >= b ? a : b;
}

export function inRange(items: ActivityItem[], range: DateRange): ActivityItem[] {
  return items.filter((item) => item.date >= range.from && item.date <= range.to);
}

export function totals(items: ActivityItem[]): Totals {
  const sum: Totals = {
    spend: 0,
    byokSpend: 0,
    requests: 0,
    promptTokens: 0,
    completionTokens: 0,
    reasoningTokens: 0,
  };
  for (const item of items) {
    sum.spend += item.usage;
    sum.byokSpend += item.byok_usage_inference;
    sum.requests += item.requests;
    sum.promptTokens += item.prompt_tokens;
    sum.completionTokens += item.completion_tokens;
    sum.reasoningTokens += item.reasoning_tokens;
  }
  sum.spend = roundUsd(sum.spend);
  sum.byokSpend = roundUsd(sum.byokSpend);
  return sum;
}

/** One bucket per day of the range, oldest first; a day without activity is a zero, not a gap. */
export function perDay(items: ActivityItem[], range: DateRange): Bucket[] {
  const byDay = new Map(daysBetween(range).map((day) => [day, { label: day, spend: 0, requests: 0 }]));
  for (const item of items) {
    const bucket = byDay.get(item.date);
    if (!bucket) continue;
    bucket.spend += item.usage;
    bucket.requests += item.requests;
  }
  return [...byDay.values()].map(rounded);
}

/**
 * One bucket per model (or provider), largest spend first (then most requests, then name). Past `limit`
 * categories, the rest are summed into one "Other (n)" bucket so a chart stays readable.
 */
export function perGroup(items: ActivityItem[], group: "model" | "provider", limit = 10): Bucket[] {
  const buckets = new Map<string, Bucket>();
  for (const item of items) {
    const label = group === "model" ? item.model : item.provider_name;
    const bucket = buckets.get(label) ?? { label, spend: 0, requests: 0 };
    bucket.spend += item.usage;
    bucket.requests += item.requests;
    buckets.set(label, bucket);
  }
  const sorted = [...buckets.values()]
    .map(rounded)
    .sort((a, b) => b.spend - a.spend || b.requests - a.requests || a.label.localeCompare(b.label));
  if (sorted.length <= limit) return sorted;
  const rest = sorted.slice(limit - 1);
  const other = rest.reduce((sum, bucket) => ({
    label: sum.label,
    spend: sum.spend + bucket.spend,
    requests: sum.requests + bucket.requests,
  }));
  return [...sorted.slice(0, limit - 1), rounded({ ...other, label: `Other (${rest.length})` })];
}

/** Balance = everything credited − everything spent (the Credits object's two totals). */
export function balanceOf(credits: { total_credits: number; total_usage: number }): number {
  return roundUsd(credits.total_credits - credits.total_usage);
}

// Sums of float USD amounts drift (0.1 + 0.2); the API's amounts are exact to 1e-12 USD (pico-dollars).
function roundUsd(amount: number): number {
  return Math.round(amount * 1e12) / 1e12;
}

function rounded(bucket: Bucket): Bucket {
  return { ...bucket, spend: roundUsd(bucket.spend) };
}

export type Measure = "spend" | "requests";

/**
 * The sentence a screen reader hears for a chart: what it shows, the total, and the largest category,
 * e.g. "Bar chart of spend per model, 3 models, total $0.42; largest: openai/gpt-4o at $0.30."
 */
export function describeChart(
  subject: string,
  buckets: Bucket[],
  measure: Measure,
  format: (value: number) => string,
): string {
  const values = buckets.map((bucket) => bucket[measure]);
  const total = values.reduce((sum, value) => sum + value, 0);
  const head = `Bar chart of ${measure} ${subject}, ${buckets.length} ${buckets.length === 1 ? "entry" : "entries"}`;
  if (total === 0) return `${head}, all zero.`;
  const largest = buckets.reduce((best, bucket) => (bucket[measure] > best[measure] ? bucket : best));
  return `${head}, total ${format(total)}; largest: ${largest.label} at ${format(largest[measure])}.`;
}
