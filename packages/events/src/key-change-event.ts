import { type EncodedEvent, encodeEvent, KEY_CHANGED_V1 } from "./envelope.js";

/** "byok_changed" names an account whose provider credentials changed (key hash empty). */
export type KeyChangeKind = "updated" | "disabled" | "enabled" | "deleted" | "byok_changed";

export interface KeyChange {
  keyHash: string;
  accountId: string;
  change: KeyChangeKind;
}

/**
 * The `key.changed` v1 event as the keys app publishes it (key = account id). Its consumers' tests
 * (the edge's principal and BYOK caches) build their events with this too, not by hand.
 */
export function encodeKeyChange(change: KeyChange): EncodedEvent {
  return encodeEvent(KEY_CHANGED_V1, change, { accountId: change.accountId });
}
