import type { Logger } from "@gw/logger";
import type { BillingClient } from "../clients/billing.js";
import type { RequestHold } from "./admit.js";

/**
 * Ends a request's own spend hold in billing without delaying the response: settled to the actual cost,
 * or released when nothing was served and nothing is owed. A lost Settle is not lost money: billing
 * reconciles from the usage event, idempotently, and an unreleased hold expires.
 */
export class Settlements {
  private readonly pending = new Set<Promise<unknown>>();

  constructor(
    private readonly billing: BillingClient,
    private readonly logger: Pick<Logger, "warn">,
  ) {}

  finish(hold: RequestHold, actualCostPico: bigint, served: boolean): void {
    if (!served && actualCostPico === 0n) {
      this.track(this.release(hold));
      return;
    }
    const settled = this.billing
      .settle({ holdId: hold.holdId, accountId: hold.accountId, keyHash: hold.keyHash, actualCostPico })
      .catch((error: unknown) => {
        this.logger.warn({ err: error, generationId: hold.holdId }, "settle failed; releasing the hold");
        return this.release(hold);
      });
    this.track(settled);
  }

  /** Resolves once every settlement started so far has finished (for a graceful stop). */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.pending]);
  }

  private release(hold: RequestHold): Promise<unknown> {
    return this.billing
      .release({ holdId: hold.holdId, accountId: hold.accountId })
      .catch((error: unknown) => {
        this.logger.warn({ err: error, generationId: hold.holdId }, "release failed; the hold will expire");
      });
  }

  private track(promise: Promise<unknown>): void {
    this.pending.add(promise);
    void promise.finally(() => this.pending.delete(promise));
  }
}
