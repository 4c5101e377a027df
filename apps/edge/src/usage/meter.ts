import {
  type ChargePolicy,
  DEFAULT_CHARGE_POLICY,
  type EventPublisher,
  encodeUsageRecorded,
} from "@gw/events";
import type { Logger } from "@gw/logger";
import type { Generation } from "../canonical/generation.js";

export interface MeterDeps {
  bus: EventPublisher;
  usageTopic: string;
  logger: Pick<Logger, "error">;
  /** How BYOK requests are charged (BYOK_FEE_PERCENT); default: the fee is 0. */
  charge?: ChargePolicy;
}

/**
 * Publishes one usage event per generation after the response has ended, never delaying it: the bus
 * buffers the event (and spools it while the broker is away). What the request's hold becomes is
 * admission's business; the event only names the budget lease the request ran under, if any. The
 * event is built by the one usage-event encoder in @gw/events, which billing's and generations'
 * consumer tests use too.
 */
export class Meter {
  constructor(private readonly deps: MeterDeps) {}

  record(generation: Generation, leaseId?: string): void {
    const event = encodeUsageRecorded(generation, this.deps.charge ?? DEFAULT_CHARGE_POLICY, leaseId);
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
