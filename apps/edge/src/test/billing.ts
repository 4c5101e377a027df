import type {
  AcquireLeaseRequest,
  AcquireLeaseResponse,
  AdmitRequest,
  AdmitResponse,
  FreeTierLimits,
  GetUsageRequest,
  GetUsageResponse,
  Refusal,
  RefusalCode,
  ReleaseRequest,
  ReturnLeaseRequest,
  SettleRequest,
} from "@gw/proto/billing/v1/billing";
import type { BillingClient } from "../clients/billing.js";

/** The free-tier limits as the billing app answers them in GetUsage (it defines them; the edge only shows them). */
export const BILLING_FREE_TIER: FreeTierLimits = {
  requestsPerMinute: 20,
  requestsPerDay: 50,
  requestsPerDayAfterPurchase: 1_000,
  purchaseThresholdPico: 5_000_000_000_000n,
};

export const EMPTY_USAGE: GetUsageResponse = {
  totalCreditsPico: 0n,
  totalUsagePico: 0n,
  isFreeTier: true,
  keyUsagePico: 0n,
  keyUsageDailyPico: 0n,
  keyUsageWeeklyPico: 0n,
  keyUsageMonthlyPico: 0n,
  keyByokUsagePico: 0n,
  keyByokUsageDailyPico: 0n,
  keyByokUsageWeeklyPico: 0n,
  keyByokUsageMonthlyPico: 0n,
  freeRequestsToday: 0,
  totalPurchasedPico: 0n,
  freeTier: BILLING_FREE_TIER,
};

/**
 * BillingService as the edge sees it, answered in memory: it admits unless told to refuse, remembers
 * every call, and reports usage per key. It stands in for the billing app, which the edge never imports.
 */
export class RecordingBilling implements BillingClient {
  readonly admits: AdmitRequest[] = [];
  readonly settles: SettleRequest[] = [];
  readonly releases: ReleaseRequest[] = [];
  readonly usageRequests: GetUsageRequest[] = [];
  readonly leaseAcquires: AcquireLeaseRequest[] = [];
  readonly leaseReturns: ReturnLeaseRequest[] = [];
  /** The most a lease is granted; undefined declines every lease (each request then gets an Admit). */
  leaseGrantPico: bigint | undefined;
  /** The requests a granted lease may start (billing's slice of the paid-model ceiling); 0 = unbounded. */
  leaseGrantRequests = 0;
  leaseUseMs = 30_000;
  /** The clock lease windows are given in (tests with a pinned clock set theirs). */
  now: () => number = Date.now;
  refusal: Refusal | undefined;
  unavailable = false;
  usageByKey = new Map<string, GetUsageResponse>();

  async admit(request: AdmitRequest): Promise<AdmitResponse> {
    this.fail();
    this.admits.push(request);
    if (this.refusal) return { admitted: false, refusal: this.refusal, holdExpiresUnixMs: 0n };
    return { admitted: true, refusal: undefined, holdExpiresUnixMs: BigInt(Date.now() + 60_000) };
  }

  async settle(request: SettleRequest) {
    this.fail();
    this.settles.push(request);
    return {};
  }

  async release(request: ReleaseRequest) {
    this.fail();
    this.releases.push(request);
    return {};
  }

  async acquireLease(request: AcquireLeaseRequest): Promise<AcquireLeaseResponse> {
    this.fail();
    this.leaseAcquires.push(request);
    const cap = this.leaseGrantPico;
    if (cap === undefined || cap < request.minPico) {
      return { granted: false, grantedPico: 0n, useUntilUnixMs: 0n, expiresUnixMs: 0n, grantedRequests: 0 };
    }
    const now = this.now();
    let grantedPico = request.requestedPico;
    if (grantedPico > cap) grantedPico = cap;
    return {
      granted: true,
      grantedPico,
      useUntilUnixMs: BigInt(now + this.leaseUseMs),
      expiresUnixMs: BigInt(now + this.leaseUseMs + 60_000),
      grantedRequests: this.leaseGrantRequests,
    };
  }

  async returnLease(request: ReturnLeaseRequest) {
    this.fail();
    this.leaseReturns.push(request);
    return {};
  }

  async getUsage(request: GetUsageRequest): Promise<GetUsageResponse> {
    this.fail();
    this.usageRequests.push(request);
    return this.usageByKey.get(request.keyHash) ?? EMPTY_USAGE;
  }

  private fail(): void {
    if (this.unavailable)
      throw Object.assign(new Error("connect ECONNREFUSED"), {
        code: 14,
        details: "unavailable",
        metadata: {},
      });
  }
}

export function refusal(code: RefusalCode, fields: Partial<Refusal> = {}): Refusal {
  return {
    code,
    limitSource: "",
    message: "",
    retryAfterSeconds: 0,
    rateLimit: 0,
    rateRemaining: 0,
    rateResetUnixMs: 0n,
    ...fields,
  };
}
