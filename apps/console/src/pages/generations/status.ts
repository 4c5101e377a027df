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

/** How long after its creation a generation may still be missing (it is being recorded). */
const RECORDING_MS = 30_000;

/**
 * Whether a 404 may be "not recorded yet": only for an id of the gateway's form
 * (`gen-<9 base36 ms><16 hex>`) created in the last 30 seconds. Any other id (malformed, or old) is
 * not found for good, and is said at once instead of after 5 s of retries.
 */
export function mayStillBeRecorded(id: string, now: number = Date.now()): boolean {
  if (!/^gen-[0-9a-z]{9}[0-9a-f]{16}$/.test(id)) return false;
  const created = Number.parseInt(id.slice(4, 13), 36);
  return now - created < RECORDING_MS && created - now < RECORDING_MS;
}

/**
 * What a failed request's attempts say, for the detail's "Error" line of a record without an `error`
 * (recorded before the gateway kept the error text): each provider tried and how it answered.
 */
export function failureSummary(
  record: Omit<StatusFields, "attempts"> & { attempts: ReadonlyArray<{ provider: string; status: number }> },
): string | undefined {
  if (record.cancelled || record.finish_reason !== "error") return undefined;
  if (record.attempts.length === 0) return "The request failed before any provider was tried.";
  const tried = record.attempts.map((attempt) =>
    attempt.status === 0 ? `${attempt.provider}: no answer` : `${attempt.provider}: ${attempt.status}`,
  );
  return `Every provider tried failed (${tried.join(", ")}).`;
}
