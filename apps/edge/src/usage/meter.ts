import type { EventPublisher } from "@gw/events";
import type { Logger } from "@gw/logger";
import type { Generation } from "../canonical/generation.js";
import { encodeUsageEvent } from "./event.js";

export interface MeterDeps {
  bus: EventPublisher;
  usageTopic: string;
  logger: Pick<Logger, "error">;
}

/**
 * Publishes one usage event per generation after the response has ended, never delaying it: the bus
 * buffers the event (and spools it while the broker is away). What the request's hold becomes is
 * admission's business; the event only names the budget lease the request ran under, if any.
 */
export class Meter {
  constructor(private readonly deps: MeterDeps) {}

  record(generation: Generation, leaseId?: string): void {
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
