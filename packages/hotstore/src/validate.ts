import type { AdmitRequest, LedgerEntryUpdate, LedgerSnapshot } from "./admission-store.js";

/**
 * Pico amounts travel as int64 (protos, Redis INCRBY). One amount is capped at 1e18 pico (1M USD) so
 * that sums of a few of them cannot overflow int64 (≈ 9.2M USD) inside a Redis script, where an
 * overflow error would leave a half-applied update behind.
 */
export const MAX_AMOUNT_PICO = 1_000_000_000_000_000_000n;
const MAX_INT64 = 9_223_372_036_854_775_807n;

export class AdmissionInputError extends RangeError {
  override name = "AdmissionInputError";
}

/** Account ids become part of a Redis Cluster hash tag `{acct:<id>}`, so braces are not allowed. */
export function checkAccountId(accountId: string): string {
  if (accountId.length === 0 || accountId.length > 200 || /[{}\s]/.test(accountId)) {
    throw new AdmissionInputError(`invalid account id: ${JSON.stringify(accountId)}`);
  }
  return accountId;
}

export function checkRef(name: string, ref: string): string {
  if (ref.length === 0 || ref.length > 200) throw new AdmissionInputError(`invalid ${name}`);
  return ref;
}

export function checkAmount(name: string, amount: bigint, allowNegative = false): bigint {
  const min = allowNegative ? -MAX_AMOUNT_PICO : 0n;
  if (amount < min || amount > MAX_AMOUNT_PICO) {
    throw new AdmissionInputError(`${name} out of range: ${amount}`);
  }
  return amount;
}

export function checkAdmitRequest(request: AdmitRequest): AdmitRequest {
  checkAccountId(request.accountId);
  checkRef("hold id", request.holdId);
  checkAmount("amount", request.amountPico);
  if (!Number.isSafeInteger(request.ttlMs) || request.ttlMs <= 0) {
    throw new AdmissionInputError(`invalid hold ttl: ${request.ttlMs}`);
  }
  checkTime(request.now);
  return request;
}

export function checkSnapshot(snapshot: LedgerSnapshot): LedgerSnapshot {
  if (snapshot.seq < 0n || snapshot.seq > MAX_INT64) throw new AdmissionInputError("invalid snapshot seq");
  if (snapshot.balancePico < -MAX_INT64 || snapshot.balancePico > MAX_INT64) {
    throw new AdmissionInputError("snapshot balance does not fit int64 pico-dollars");
  }
  return snapshot;
}

export function checkEntry(entry: LedgerEntryUpdate): LedgerEntryUpdate {
  if (entry.entryId <= 0n || entry.entryId > MAX_INT64) throw new AdmissionInputError("invalid entry id");
  checkAmount("entry amount", entry.amountPico, true);
  if (entry.pendingRef !== undefined) checkRef("pending ref", entry.pendingRef);
  return entry;
}

export function checkTime(now: number): number {
  if (!Number.isSafeInteger(now) || now < 0) throw new AdmissionInputError(`invalid time: ${now}`);
  return now;
}
