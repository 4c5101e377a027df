/** The part of a generation record the list's Status and Attempts columns read. */
export interface StatusFields {
  cancelled: boolean;
  finish_reason: string | null;
  attempts: ReadonlyArray<{ status: number }>;
}

/** "Completed (stop)", "Cancelled", "Error": how the request ended, for the Status column. */
export function statusLabel(record: StatusFields): string {
  if (record.cancelled) return "Cancelled";
  if (record.finish_reason === "error") return "Error";
  if (record.finish_reason === null) return "Completed";
  return `Completed (${record.finish_reason})`;
}

/** "1", or "3 (2 failed)" when the gateway fell back after upstream failures. */
export function attemptsLabel(record: StatusFields): string {
  const failed = record.attempts.filter((attempt) => attempt.status < 200 || attempt.status >= 300).length;
  const total = Math.max(record.attempts.length, 1);
  return failed > 0 ? `${total} (${failed} failed)` : String(total);
}

/** An attempt's upstream status as text: 0 means no answer arrived (timeout, connection refused). */
export function attemptStatus(status: number): string {
  return status === 0 ? "No answer" : String(status);
}
