import type { EventPublisher } from "@gw/events";
import type { Logger } from "@gw/logger";
import { type Hold, isLeaseHold, type RequestHold } from "../admission/admit.js";
import type { LeaseBook } from "../admission/lease-book.js";
import type { BillingClient } from "../clients/billing.js";
import { encodeUsageEvent } from "./event.js";
import type { Generation } from "./generation.js";

export interface MeterDeps {
  billing: BillingClient;
  bus: EventPublisher;
  usageTopic: string;
  /** Where requests admitted under a budget lease are finished (absent: no leases). */
  leases?: LeaseBook | undefined;
  logger: Pick<Logger, "warn" | "error">;
}

/**
 * Runs after the response has ended and never delays it: the hold is settled to the actual cost (or
 * released when nothing was served) without waiting, and one usage event is handed to the bus, which
 * buffers it. A lost Settle is not lost money: billing reconciles from the event, idempotently.
 * A request admitted under a budget lease needs no call at all: the lease takes its actual cost
 * locally, and the usage event names the lease so billing moves the cost out of the lease's hold.
 */
export class Meter {
  private readonly pending = new Set<Promise<unknown>>();

  constructor(private readonly deps: MeterDeps) {}

  /** Resolves once every settlement started so far has finished (for a graceful stop). */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.pending]);
  }

  record(generation: Generation, hold: Hold | undefined): void {
    if (hold && isLeaseHold(hold)) {
      this.deps.leases?.finish(hold, generation.cost.totalPico);
      this.publish(generation, hold.lease.id);
      return;
    }
    if (hold) this.settle(generation, hold);
    this.publish(generation);
  }

  private settle(generation: Generation, hold: RequestHold): void {
    const { billing, logger } = this.deps;
    const release = () =>
      billing.release({ holdId: hold.holdId, accountId: hold.accountId }).catch((error: unknown) => {
        logger.warn({ err: error, generationId: hold.holdId }, "release failed; the hold will expire");
      });
    if (!generation.served && generation.cost.totalPico === 0n) {
      this.track(release());
      return;
    }
    const settled = billing
      .settle({
        holdId: hold.holdId,
        accountId: hold.accountId,
        keyHash: hold.keyHash,
        actualCostPico: generation.cost.totalPico,
      })
      .catch((error: unknown) => {
        logger.warn({ err: error, generationId: hold.holdId }, "settle failed; releasing the hold");
        return release();
      });
    this.track(settled);
  }

  private track(promise: Promise<unknown>): void {
    this.pending.add(promise);
    void promise.finally(() => this.pending.delete(promise));
  }

  private publish(generation: Generation, leaseId?: string): void {
    const event = encodeUsageEvent(generation, leaseId);
    try {
      this.deps.bus.publish(this.deps.usageTopic, event.key, event.value, event.headers);
    } catch (error) {
      // The bus spools when the broker is down; a throw here means it is closed, which is worth a loud log.
      this.deps.logger.error(
        { err: error, generationId: generation.generationId },
        "usage event not published",
      );
    }
  }
}
