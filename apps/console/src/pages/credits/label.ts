import { formatNumber, formatUsd } from "../../components/format";

/** A line of GET /api/v1/credits/transactions, as far as these helpers read it. */
export interface TransactionLine {
  kind: string;
  amount: number;
  entries: number;
}

/** What the line is, in words: a usage line says how many ledger entries (requests, refunds) it sums. */
export function transactionLabel(line: TransactionLine): string {
  if (line.kind === "purchase") return "Purchase";
  if (line.kind === "grant") return "Credit grant";
  if (line.kind === "usage")
    return `Usage: ${formatNumber(line.entries)} ${line.entries === 1 ? "entry" : "entries"}`;
  return line.kind;
}

/** "+$10.00" for a credit, "−$0.70" for usage: the sign is the point of the column. */
export function signedUsd(amount: number): string {
  return amount < 0 ? `−${formatUsd(-amount)}` : `+${formatUsd(amount)}`;
}

/** Credits minus usage, rounded to the API's pico-dollar precision (float sums drift: 0.1 + 0.2). */
export function balance(totals: { total_credits: number; total_usage: number }): number {
  return Math.round((totals.total_credits - totals.total_usage) * 1e12) / 1e12;
}
