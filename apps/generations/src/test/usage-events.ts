import {
  type EventPublisher,
  encodeEvent,
  USAGE_RECORDED_V1,
  type UsageFacts,
  type UsageRecorded,
  usageRecorded,
} from "@gw/events";
import { exampleUsageFacts } from "@gw/events/testing";
import { type ChargePolicy, DEFAULT_CHARGE_POLICY } from "@gw/money";

/** A finished request's facts, with `createdAt` moving its start (and so its timestamps) as a whole. */
export type UsageOverrides = Partial<UsageFacts> & { createdAt?: Date };

/**
 * The usage event the edge publishes for such a request, built by the edge's own encoder
 * (`usageRecorded` in @gw/events) from the example facts: every field set to a distinct value, and
 * cost and upstream cost as the producer computes them (a BYOK request is charged only the fee).
 */
export function usageEvent(
  overrides: UsageOverrides = {},
  policy: ChargePolicy = DEFAULT_CHARGE_POLICY,
): UsageRecorded {
  const { createdAt, ...facts } = overrides;
  const startedAt = createdAt?.getTime() ?? Date.now() - 850;
  const timing = { startedAt, generationStartedAt: startedAt + 240, endedAt: startedAt + 850 };
  return usageRecorded(exampleUsageFacts({ ...timing, ...facts }), policy);
}

/** Publishes a usage event the way the edge does: envelope id = generation id, key = account id. */
export function publishUsage(bus: EventPublisher, topic: string, usage: UsageRecorded): void {
  const event = encodeEvent(USAGE_RECORDED_V1, usage, {
    accountId: usage.accountId,
    eventId: usage.generationId,
  });
  bus.publish(topic, event.key, event.value, event.headers);
}
