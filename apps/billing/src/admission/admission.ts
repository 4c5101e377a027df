import { GatewayError } from "@gw/errors";
import { AdmissionInputError, type AdmissionStore, type AdmitResult } from "@gw/hotstore";
import type { Logger } from "@gw/logger";
import {
  type AdmitRequest,
  type AdmitResponse,
  type Refusal,
  RefusalCode,
} from "@gw/proto/billing/v1/billing";
import type { Kysely } from "kysely";
import type { BillingTables } from "../db/schema.js";
import { ledgerSnapshot } from "../repositories/ledger-read.js";

export interface AdmissionSettings {
  holdTtlMs: number;
  /** Admit without a hold when Redis (or the ledger, on a cold view) cannot answer. */
  failOpen: boolean;
}

export interface AdmissionDeps {
  store: AdmissionStore;
  db: Kysely<BillingTables>;
  logger: Logger;
  settings: AdmissionSettings;
  clock: () => number;
}

// A cold view is loaded and the admit retried; two rounds cover a load that lost a race to a newer one.
const MAX_ROUNDS = 3;

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
        throw new GatewayError("invalid_request", error.message, { code: "invalid_admit_request" });
      }
      return this.dependencyDown(request, error);
    }
  }

  private async admitWithReload(request: AdmitRequest): Promise<AdmitResponse> {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const now = this.deps.clock();
      const result = await this.deps.store.admit({
        accountId: request.accountId,
        holdId: request.holdId,
        amountPico: request.worstCaseCostPico,
        ttlMs: this.deps.settings.holdTtlMs,
        now,
      });
      if (result.status !== "cold") return toResponse(result);
      await this.reload(request.accountId);
    }
    throw new Error(`admission view of ${request.accountId} stayed cold after ${MAX_ROUNDS} loads`);
  }

  /** Loads the ledger snapshot into the view; concurrent callers for one account share the load. */
  reload(accountId: string): Promise<void> {
    const pending = this.loading.get(accountId);
    if (pending) return pending;
    const load = (async () => {
      const snapshot = await ledgerSnapshot(this.deps.db, accountId);
      await this.deps.store.load(accountId, snapshot, this.deps.clock());
    })().finally(() => this.loading.delete(accountId));
    this.loading.set(accountId, load);
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
      code: "admission_unavailable",
      cause: error,
    });
  }
}

function toResponse(result: Exclude<AdmitResult, { status: "cold" }>): AdmitResponse {
  if (result.status === "admitted") {
    return { admitted: true, refusal: undefined, holdExpiresUnixMs: BigInt(result.expiresAt) };
  }
  return { admitted: false, refusal: insufficientCredits(), holdExpiresUnixMs: 0n };
}

function insufficientCredits(): Refusal {
  return {
    code: RefusalCode.REFUSAL_CODE_INSUFFICIENT_CREDITS,
    limitSource: "account",
    message: "insufficient credits: the account balance does not cover this request; add credits",
    retryAfterSeconds: 0,
    rateLimit: 0,
    rateRemaining: 0,
    rateResetUnixMs: 0n,
  };
}

function checkRequest(request: AdmitRequest): void {
  const invalid = (message: string) =>
    new GatewayError("invalid_request", message, { code: "invalid_admit_request" });
  if (!request.accountId) throw invalid("account_id is required");
  if (!request.holdId) throw invalid("hold_id is required");
  if (request.worstCaseCostPico < 0n) throw invalid("worst_case_cost_pico must not be negative");
}
