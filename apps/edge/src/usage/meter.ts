import { type EventPublisher, encodeUsageRecorded } from "@gw/events";
import { type Deadline, sharedTimerWheel } from "@gw/http";
import type { Logger } from "@gw/logger";
import { type ChargePolicy, chargedPico, DEFAULT_CHARGE_POLICY, type Pico } from "@gw/money";
import type { Generation } from "../canonical/generation.js";

export interface MeterDeps {
  bus: EventPublisher;
  usageTopic: string;
  logger: Pick<Logger, "error">;
  /** How BYOK requests are charged (BYOK_FEE_PERCENT); default: the fee is 0. */
  charge?: ChargePolicy;
  /** How long a response waits for a bus that persists in-process (the outbox); default 5 s. */
  persistTimeoutMs?: number;
}

/**
 * Publishes one usage event per generation, and the response waits for the bus's `persisted()`
 * before it completes, so a crash after a client saw its answer never loses the usage. That wait is
 * local, never the broker: on Kafka the edge's journal (an append to its spool file, one write shared by
 * the answers that finish in the same event-loop turn), in the embedded
 * default its PostgreSQL outbox (one insert, shared by the requests that finish together). What the request's hold becomes is
 * admission's business; the event only names the budget lease the request ran under, if any. The
 * event is built by the one usage-event encoder in @gw/events, which billing's and generations'
 * consumer tests use too.
 */
export class Meter {
  constructor(private readonly deps: MeterDeps) {}

  /**
   * What the generation costs the account's credits, by @gw/money's BYOK charge rule under this edge's
   * BYOK_FEE_PERCENT. The end of a generation asks this once and hands the figure to both admission
   * (the hold ends at it) and `record` (the event's cost), so the two can never disagree.
   */
  charge(generation: Pick<Generation, "cost" | "isByok">): Pico {
    return chargedPico(generation.cost, generation.isByok, this.deps.charge ?? DEFAULT_CHARGE_POLICY);
  }

  /** Publishes the generation's usage event; `charged` is `charge(generation)`, computed once by the caller. */
  record(generation: Generation, charged: Pico, leaseId?: string): void {
    const event = encodeUsageRecorded(generation, charged, leaseId);
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

  /**
   * Resolves once every event recorded so far is durable, where the bus has that step (the outbox);
   * at once on Kafka. Bounded: if the database does not answer in time the response goes out anyway
   * (the event stays queued and is written when it answers), with an error in the log.
   */
  async persisted(): Promise<void> {
    const pending = this.deps.bus.persisted?.();
    if (!pending) return;
    let deadline: Deadline | undefined;
    // On the shared wheel: no Node timer per request (the bound is 5 s; a tick more does not matter).
    const timedOut = new Promise<false>((resolve) => {
      deadline = sharedTimerWheel.schedule(this.deps.persistTimeoutMs ?? 5_000, () => resolve(false));
    });
    const done = await Promise.race([pending.then(() => true), timedOut]);
    deadline?.cancel();
    if (!done) this.deps.logger.error({}, "usage event not yet durable; answering without waiting longer");
  }
}
