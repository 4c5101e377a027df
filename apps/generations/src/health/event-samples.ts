import type { Envelope, UsageRecorded } from "@gw/events";
import { samplesOf } from "./samples.js";
import { type EventSamples, WINDOW_MS } from "./store.js";

/**
 * What one usage event adds to endpoint health: its attempts at the catalogue's endpoints (`known`,
 * `model\nprovider`; an unpriced proxy call's endpoint is not kept), when it ended inside the window
 * (older traffic would be swept at once). Keyed by the event id, which is its record's id.
 */
export function eventSamples(
  envelope: Envelope,
  usage: UsageRecorded,
  known: ReadonlySet<string>,
  now: number,
): EventSamples | undefined {
  const at = envelope.occurredAt ?? usage.createdAt ?? new Date(now);
  if (now - at.getTime() > WINDOW_MS) return undefined;
  const samples = samplesOf(usage).filter((sample) => known.has(`${sample.model}\n${sample.provider}`));
  return samples.length > 0 ? { generationId: envelope.eventId, at, samples } : undefined;
}
