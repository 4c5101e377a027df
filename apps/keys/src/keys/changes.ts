import { type EventPublisher, encodeEvent, KEY_CHANGED_V1 } from "@gw/events";

/** "byok_changed" names an account whose provider credentials changed (key hash empty). */
export type KeyChangeKind = "updated" | "disabled" | "enabled" | "deleted" | "byok_changed";

export interface KeyChange {
  keyHash: string;
  accountId: string;
  change: KeyChangeKind;
}

/**
 * Tells every edge to drop its cached principal for the key. Called only after the change is
 * committed, so an edge that refetches at once reads the new state.
 */
export function publishKeyChange(publisher: EventPublisher, topic: string, change: KeyChange): void {
  const event = encodeEvent(KEY_CHANGED_V1, change, { accountId: change.accountId });
  publisher.publish(topic, event.key, event.value, event.headers);
}

/** The most specific name for what a PATCH did to a key's authentication answer. */
export function changeKindOf(patch: { disabled?: boolean }): KeyChangeKind {
  if (patch.disabled === true) return "disabled";
  if (patch.disabled === false) return "enabled";
  return "updated";
}
