/** Money and number formatting in one place, so every page writes amounts the same way. */

const USD_LARGE = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
// Per-request costs are fractions of a cent: three significant digits keep them readable ($0.000123).
const USD_SMALL = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  minimumSignificantDigits: 2,
  maximumSignificantDigits: 3,
});
const INTEGER = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const DECIMAL = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });
const COMPACT = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });

/** `$12.35`, `$1,234.00`, `$0.50`, `$0.000123`, `$0.00`. */
export function formatUsd(amount: number): string {
  if (!Number.isFinite(amount)) return "—";
  if (amount === 0) return "$0.00";
  if (Math.abs(amount) >= 1) return USD_LARGE.format(amount);
  return USD_SMALL.format(amount);
}

/** A USD amount or its absence: `null` (no limit) reads "No limit". */
export function formatUsdOrNone(amount: number | null | undefined, none = "No limit"): string {
  return amount === null || amount === undefined ? none : formatUsd(amount);
}

/** `1,234`; fractions rounded to two places. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return "—";
  return Number.isInteger(value) ? INTEGER.format(value) : DECIMAL.format(value);
}

/** `1.2K`, `3.4M`: chart axes. */
export function formatCompact(value: number): string {
  return COMPACT.format(value);
}

/** An ISO timestamp as `2026-11-23 19:40 UTC` (UTC: the API's days and limits are UTC). */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return "—";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** Milliseconds as `850 ms` or `2.4 s`. */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return "—";
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}
