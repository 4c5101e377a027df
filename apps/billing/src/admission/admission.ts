import { AdmissionInputError, type AdmissionStore, type KeyLimitCheck, keyWindow } from "@gw/admission-store";
import { GatewayError } from "@gw/errors";
import type { Logger } from "@gw/logger";
import type { AdmitRequest, AdmitResponse } from "@gw/proto/billing/v1/billing";
import type { Kysely } from "kysely";
import type { BillingTables } from "../db/schema.js";
import { freeRequestCounts, keyWindowSpend, ledgerSnapshot } from "../repositories/ledger-read.js";
import { freeRateFloors, freeWindows, keyLimitCheck, rateChecks } from "./limits.js";
import { toResponse } from "./responses.js";

export interface AdmissionSettings {
  holdTtlMs: number;
  /** Admit without a hold when Redis (or the ledger, on a cold view) cannot answer. */
  failOpen: boolean;
  /** PAID_REQUESTS_PER_MINUTE: the account's paid-model request ceiling per UTC minute; 0 = none. */
  paidRequestsPerMinute: number;
}

export interface AdmissionDeps {
  store: AdmissionStore;
  db: Kysely<BillingTables>;
  logger: Logger;
  settings: AdmissionSettings;
  clock: () => number;
}

// A cold view (then a cold key window) is loaded and the admit retried; spare rounds cover a load
// that lost a race to a newer entry.
const MAX_ROUNDS = 5;

/**
 * Admit: one store round trip on a warm view. A cold or aged view is (re)loaded from one ledger
 * snapshot, shared by concurrent requests of the same account, then the admit is retried.
 */
export class Admission {
  private readonly loading = new Map<string, Promise<void>>();

  constructor(private readonly deps: AdmissionDeps) {}

  async admit(request: AdmitRequest): Promise<AdmitResponse> {
    checkRequest(request);
    try {
      return await this.admitWithReload(request);
    } catch (error) {
      if (error instanceof GatewayError) throw error;
      if (error instanceof AdmissionInputError) {
        throw new GatewayError("invalid_request", error.message, { code: "invalid_request" });
      }
      return this.dependencyDown(request, error);
    }
  }

  private async admitWithReload(request: AdmitRequest): Promise<AdmitResponse> {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const now = this.deps.clock();
      const keyLimit = keyLimitCheck(request, now);
      const result = await this.deps.store.admit({
        accountId: request.accountId,
        holdId: request.holdId,
        amountPico: request.worstCaseCostPico,
        ttlMs: this.deps.settings.holdTtlMs,
        now,
        keyLimit,
        rates: rateChecks(request, now, this.deps.settings.paidRequestsPerMinute),
      });
      if (result.status === "cold") await this.reload(request.accountId);
      else if (result.status === "cold_key" && keyLimit) {
        await this.reloadKey(request.accountId, keyLimit);
      } else if (result.status !== "cold_key") return toResponse(result, now);
    }
    throw new Error(`admission view of ${request.accountId} stayed cold after ${MAX_ROUNDS} loads`);
  }

  /** Loads the ledger snapshot into the view; concurrent callers for one account share the load. */
  reload(accountId: string): Promise<void> {
    return this.shared(accountId, async () => {
      const now = this.deps.clock();
      const { minute, day } = freeWindows(now);
      const [snapshot, counts] = await Promise.all([
        ledgerSnapshot(this.deps.db, accountId),
        freeRequestCounts(this.deps.db, accountId, {
          minute: new Date(minute.windowStartMs),
          day: new Date(day.windowStartMs),
        }),
      ]);
      await this.deps.store.load(accountId, { ...snapshot, rateFloors: freeRateFloors(now, counts) }, now);
    });
  }

  /** Loads a key's spend in one window; a `stale` answer is retried by the admit loop. */
  reloadKey(accountId: string, key: KeyLimitCheck): Promise<void> {
    const { keyHash, windowStartMs, includeByok = false } = key;
    return this.shared(`${accountId}\u0000${keyWindow(keyHash, windowStartMs, includeByok)}`, async () => {
      const since = new Date(windowStartMs);
      const spend = await keyWindowSpend(this.deps.db, accountId, keyHash, since, includeByok);
      await this.deps.store.loadKey(accountId, { keyHash, windowStartMs, includeByok, ...spend });
    });
  }

  private shared(id: string, work: () => Promise<void>): Promise<void> {
    const pending = this.loading.get(id);
    if (pending) return pending;
    const load = work().finally(() => this.loading.delete(id));
    this.loading.set(id, load);
    return load;
  }

  private dependencyDown(request: AdmitRequest, error: unknown): AdmitResponse {
    if (this.deps.settings.failOpen) {
      this.deps.logger.warn(
        { err: error, accountId: request.accountId, holdId: request.holdId },
        "admission store unavailable: admitting without a hold (ADMISSION_FAIL_OPEN)",
      );
      return { admitted: true, refusal: undefined, holdExpiresUnixMs: 0n };
    }
    this.deps.logger.error({ err: error, accountId: request.accountId }, "admission store unavailable");
    throw new GatewayError("service_unavailable", "admission is unavailable", {
      code: "dependency_unavailable",
      cause: error,
    });
  }
}

function checkRequest(request: AdmitRequest): void {
  const invalid = (message: string) =>
    new GatewayError("invalid_request", message, { code: "invalid_request" });
  if (!request.accountId) throw invalid("account_id is required");
  if (!request.holdId) throw invalid("hold_id is required");
  if (request.worstCaseCostPico < 0n) throw invalid("worst_case_cost_pico must not be negative");
}
