import type { ActivityItem, DateRange } from "./series";

/** The columns of the usage export, as `/api/v1/activity` names its fields (one row per day × model × provider). */
const COLUMNS = [
  "date",
  "model",
  "provider_name",
  "requests",
  "usage",
  "byok_usage_inference",
  "prompt_tokens",
  "completion_tokens",
  "reasoning_tokens",
] as const satisfies ReadonlyArray<keyof ActivityItem>;

/**
 * The activity of the range as CSV (RFC 4180: CRLF lines, fields quoted when they hold a comma, quote
 * or line break). A field starting with = + - @ is prefixed with ' so a spreadsheet does not run it as
 * a formula (a model name is data from the catalogue, not the user's own).
 */
export function activityCsv(items: readonly ActivityItem[]): string {
  const rows = [...items]
    .sort((a, b) => a.date.localeCompare(b.date) || a.model.localeCompare(b.model))
    .map((item) => COLUMNS.map((column) => csvField(item[column])).join(","));
  return `${[COLUMNS.join(","), ...rows].join("\r\n")}\r\n`;
}

/** `usage-2026-11-01-to-2026-11-27.csv` */
export function csvFileName(range: DateRange): string {
  return `usage-${range.from}-to-${range.to}.csv`;
}

function csvField(value: string | number): string {
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
