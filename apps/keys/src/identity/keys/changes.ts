import { type EventPublisher, encodeKeyChange, type KeyChange, type KeyChangeKind } from "@gw/events";

export type { KeyChange, KeyChangeKind };

/**
 * Tells every edge to drop its cached principal for the key. Called only after the change is
 * committed, so an edge that refetches at once reads the new state.
 */
export function publishKeyChange(publisher: EventPublisher, topic: string, change: KeyChange): void {
  const event = encodeKeyChange(change);
  publisher.publish(topic, event.key, event.value, event.headers);
}

/** The most specific name for what a PATCH did to a key's authentication answer. */
export function changeKindOf(patch: { disabled?: boolean }): KeyChangeKind {
  if (patch.disabled === true) return "disabled";
  if (patch.disabled === false) return "enabled";
  return "updated";
}
