import type {
  AccountLedgerEntry,
  AdmitRequest,
  KeySpendSnapshot,
  LedgerEntryUpdate,
  LedgerSnapshot,
  RateCheck,
} from "./admission-store.js";

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
  if (request.keyLimit) {
    checkName("key hash", request.keyLimit.keyHash);
    checkAmount("key limit", request.keyLimit.limitPico);
    checkTime(request.keyLimit.windowStartMs);
  }
  for (const rate of request.rates ?? []) checkRate(rate);
  return request;
}

/** Key hashes and rate names become parts of Redis field and key names. */
export function checkName(name: string, value: string): string {
  if (value.length === 0 || value.length > 200 || /[{}@\s]/.test(value)) {
    throw new AdmissionInputError(`invalid ${name}: ${JSON.stringify(value)}`);
  }
  return value;
}

function checkRate(rate: RateCheck): void {
  checkName("rate name", rate.name);
  const count = (value: number) => Number.isSafeInteger(value) && value >= 0;
  if (!count(rate.limit) || (rate.upgrade && !count(rate.upgrade.limit))) {
    throw new AdmissionInputError(`invalid rate limit for ${rate.name}`);
  }
  if (rate.take !== undefined && (!count(rate.take) || rate.take < 1)) {
    throw new AdmissionInputError(`invalid rate take for ${rate.name}: ${rate.take}`);
  }
  if (rate.upgrade) checkAmount("upgrade threshold", rate.upgrade.minPurchasedPico);
  checkTime(rate.windowStartMs);
  if (checkTime(rate.windowEndMs) <= rate.windowStartMs) {
    throw new AdmissionInputError(`empty rate window for ${rate.name}`);
  }
}

export function checkKeySnapshot(snapshot: KeySpendSnapshot): KeySpendSnapshot {
  checkName("key hash", snapshot.keyHash);
  checkTime(snapshot.windowStartMs);
  checkAmount("key spend", snapshot.spentPico, true);
  if (snapshot.seq < 0n || snapshot.seq > MAX_INT64) throw new AdmissionInputError("invalid snapshot seq");
  return snapshot;
}

export function checkSnapshot(snapshot: LedgerSnapshot): LedgerSnapshot {
  if (snapshot.seq < 0n || snapshot.seq > MAX_INT64) throw new AdmissionInputError("invalid snapshot seq");
  if (snapshot.balancePico < -MAX_INT64 || snapshot.balancePico > MAX_INT64) {
    throw new AdmissionInputError("snapshot balance does not fit int64 pico-dollars");
  }
  for (const floor of snapshot.rateFloors ?? []) {
    checkName("rate name", floor.name);
    checkTime(floor.windowStartMs);
    if (
      checkTime(floor.windowEndMs) <= floor.windowStartMs ||
      !Number.isSafeInteger(floor.count) ||
      floor.count < 0
    ) {
      throw new AdmissionInputError(`invalid rate floor for ${floor.name}`);
    }
  }
  const purchased = snapshot.purchasedPico ?? 0n;
  if (purchased < 0n || purchased > MAX_INT64) throw new AdmissionInputError("invalid purchased total");
  return snapshot;
}

export function checkEntry(entry: LedgerEntryUpdate): LedgerEntryUpdate {
  if (entry.entryId <= 0n || entry.entryId > MAX_INT64) throw new AdmissionInputError("invalid entry id");
  checkAmount("entry amount", entry.amountPico, true);
  if (entry.pendingRef !== undefined) checkRef("pending ref", entry.pendingRef);
  if (entry.keyHash !== undefined) checkName("key hash", entry.keyHash);
  if (entry.createdAtMs !== undefined) checkTime(entry.createdAtMs);
  if (entry.byokPico !== undefined) checkAmount("byok cost", entry.byokPico);
  if (entry.leaseRef !== undefined) checkRef("lease ref", entry.leaseRef);
  return entry;
}

/** Every entry of a batch apply, checked before any is applied. */
export function checkEntries(entries: readonly AccountLedgerEntry[]): readonly AccountLedgerEntry[] {
  for (const { accountId, entry } of entries) {
    checkAccountId(accountId);
    checkEntry(entry);
  }
  return entries;
}

export function checkTime(now: number): number {
  if (!Number.isSafeInteger(now) || now < 0) throw new AdmissionInputError(`invalid time: ${now}`);
  return now;
}
