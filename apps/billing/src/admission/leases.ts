import {
  AdmissionInputError,
  type AdmissionStore,
  type KeyLimitCheck,
  keyWindow,
  type RateCheck,
} from "@gw/admission-store";
import { GatewayError } from "@gw/errors";
import type { Logger } from "@gw/logger";
import type { AcquireLeaseRequest, AcquireLeaseResponse } from "@gw/proto/billing/v1/billing";
import type { Admission } from "./admission.js";
import { keyLimitCheck, keyWindowEnd, leaseRequestSlice, paidCeiling } from "./limits.js";

export interface LeaseSettings {
  /** The lease hold's TTL: how long a crashed edge's lease can pin budget. */
  ttlMs: number;
  /** How long an edge may start requests under one lease before it asks again. */
  useMs: number;
  /** As for Admit: without Redis, answer "not granted" (the edge's Admit then fails open). */
  failOpen: boolean;
  /** The paid-model request ceiling per minute (as Admit's); a lease takes a slice of it. 0 = none. */
  paidRequestsPerMinute: number;
}

export interface LeaseDeps {
  store: AdmissionStore;
  admission: Admission;
  logger: Logger;
  settings: LeaseSettings;
  clock: () => number;
}

/** Requests started under a lease get at least this long to finish inside its hold. */
export const LEASE_EXPIRY_MARGIN_MS = 60_000;
/** A lease takes at most 1/8 of what the account and the key have left, so one edge cannot starve the others. */
const SHARE = 8n;
const MAX_ROUNDS = 5;
const NOT_GRANTED: AcquireLeaseResponse = {
  granted: false,
  grantedPico: 0n,
  useUntilUnixMs: 0n,
  expiresUnixMs: 0n,
  grantedRequests: 0,
};

/**
 * AcquireLease: one hold (id = lease id) sized from the hot view, placed through the same atomic
 * admit as a request's hold, so it counts against the balance and the key's window like one. Leased
 * requests are paid-model requests, so with a request ceiling the same admit counts the lease's
 * slice of the current minute up front (the requests its edge may start under it); a slice that no
 * longer fits declines the lease, and the edge admits request by request, each counted exactly.
 */
export class Leases {
  constructor(private readonly deps: LeaseDeps) {}

  async acquire(request: AcquireLeaseRequest): Promise<AcquireLeaseResponse> {
    checkRequest(request);
    try {
      return await this.acquireWithReload(request);
    } catch (error) {
      if (error instanceof GatewayError) throw error;
      if (error instanceof AdmissionInputError) {
        throw new GatewayError("invalid_request", error.message, { code: "invalid_request" });
      }
      return this.dependencyDown(request, error);
    }
  }

  private async acquireWithReload(request: AcquireLeaseRequest): Promise<AcquireLeaseResponse> {
    const { accountId, leaseId } = request;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const now = this.deps.clock();
      const keyLimit = keyLimitCheck(request, now);
      const grant = await this.grantFromView(request, keyLimit, now);
      if (grant === "cold") await this.deps.admission.reload(accountId);
      else if (grant === "cold_key" && keyLimit) await this.deps.admission.reloadKey(accountId, keyLimit);
      else if (typeof grant !== "bigint" || grant <= 0n || grant < request.minPico) return NOT_GRANTED;
      else {
        const slice = leaseRequestSlice(this.deps.settings.paidRequestsPerMinute, request.requestedRequests);
        const ceiling = paidCeiling(this.deps.settings.paidRequestsPerMinute, now, slice);
        const result = await this.deps.store.admit({
          accountId,
          holdId: leaseId,
          amountPico: grant,
          ttlMs: this.deps.settings.ttlMs,
          now,
          keyLimit,
          rates: ceiling ? [ceiling] : [],
        });
        if (result.status === "cold") await this.deps.admission.reload(accountId);
        else if (result.status === "cold_key" && keyLimit) {
          await this.deps.admission.reloadKey(accountId, keyLimit);
        } else if (result.status !== "admitted") return NOT_GRANTED;
        else return this.granted(request, { grant, slice, ceiling }, now, result.expiresAt);
      }
    }
    throw new Error(`admission view of ${accountId} stayed cold after ${MAX_ROUNDS} loads`);
  }

  /**
   * min(requested, available / 8, key remaining / 8), read from the hot view. A retried acquire of a
   * lease already held answers with the hold as it stands (admit is idempotent on the id).
   */
  private async grantFromView(
    request: AcquireLeaseRequest,
    keyLimit: KeyLimitCheck | undefined,
    now: number,
  ): Promise<bigint | "cold" | "cold_key"> {
    const view = await this.deps.store.view(request.accountId, now);
    if (!view) return "cold";
    const held = view.holds[request.leaseId];
    if (held !== undefined) return held;
    let grant = min(request.requestedPico, view.availablePico / SHARE);
    if (keyLimit) {
      const used = view.keyUsed[keyWindow(keyLimit.keyHash, keyLimit.windowStartMs, keyLimit.includeByok)];
      if (used === undefined) return "cold_key";
      grant = min(grant, (keyLimit.limitPico - used) / SHARE);
    }
    return grant;
  }

  /**
   * Requests start under the lease until the key's window ends, never too close to the expiry, and,
   * with a request ceiling, only within the minute its slice was counted in.
   */
  private granted(
    request: AcquireLeaseRequest,
    taken: { grant: bigint; slice: number; ceiling: RateCheck | undefined },
    now: number,
    expiresAt: number,
  ): AcquireLeaseResponse {
    let useUntil = Math.min(now + this.deps.settings.useMs, expiresAt - LEASE_EXPIRY_MARGIN_MS);
    const windowEnd = request.keyLimit ? keyWindowEnd(request.keyLimit.reset, now) : undefined;
    if (windowEnd !== undefined) useUntil = Math.min(useUntil, windowEnd);
    if (taken.ceiling) useUntil = Math.min(useUntil, taken.ceiling.windowEndMs);
    return {
      granted: true,
      grantedPico: taken.grant,
      useUntilUnixMs: BigInt(Math.max(now, useUntil)),
      expiresUnixMs: BigInt(expiresAt),
      grantedRequests: taken.ceiling ? taken.slice : 0,
    };
  }

  private dependencyDown(request: AcquireLeaseRequest, error: unknown): AcquireLeaseResponse {
    if (this.deps.settings.failOpen) {
      this.deps.logger.warn(
        { err: error, accountId: request.accountId, leaseId: request.leaseId },
        "admission store unavailable: no lease, the edge admits per request (ADMISSION_FAIL_OPEN)",
      );
      return NOT_GRANTED;
    }
    this.deps.logger.error({ err: error, accountId: request.accountId }, "admission store unavailable");
    throw new GatewayError("service_unavailable", "admission is unavailable", {
      code: "dependency_unavailable",
      cause: error,
    });
  }
}

const min = (a: bigint, b: bigint): bigint => (a < b ? a : b);

function checkRequest(request: AcquireLeaseRequest): void {
  const invalid = (message: string) =>
    new GatewayError("invalid_request", message, { code: "invalid_request" });
  if (!request.accountId) throw invalid("account_id is required");
  if (!request.leaseId) throw invalid("lease_id is required");
  // Without the key's hash its limit could not be checked: refuse rather than lease past it.
  if (request.keyLimit && !request.keyHash) throw invalid("key_hash is required with key_limit");
  if (request.requestedPico < 0n) throw invalid("requested_pico must not be negative");
  if (request.minPico < 0n) throw invalid("min_pico must not be negative");
}
