import { randomUUID } from "node:crypto";
import { Envelope } from "@gw/proto/events/v1/envelope";
import { KeyChanged } from "@gw/proto/events/v1/key_changes";
import { PaymentSettled } from "@gw/proto/events/v1/payments";
import { UsageRecorded } from "@gw/proto/events/v1/usage";

export { Envelope, KeyChanged, PaymentSettled, UsageRecorded };

/** A codec for one published (event_type, event_version); a new version gets a new entry. */
interface PayloadCodec<Payload> {
  encode(message: Payload): { finish(): Uint8Array };
  decode(input: Uint8Array): Payload;
}

export interface EventKind<Payload> {
  type: string;
  version: number;
  codec: PayloadCodec<Payload>;
}

export const USAGE_RECORDED_V1: EventKind<UsageRecorded> = {
  type: "usage.recorded",
  version: 1,
  codec: UsageRecorded,
};
export const KEY_CHANGED_V1: EventKind<KeyChanged> = { type: "key.changed", version: 1, codec: KeyChanged };
export const PAYMENT_SETTLED_V1: EventKind<PaymentSettled> = {
  type: "payment.settled",
  version: 1,
  codec: PaymentSettled,
};

export interface EncodedEvent {
  key: string;
  value: Uint8Array;
  headers: Record<string, string>;
  envelope: Envelope;
}

export interface EventMeta {
  accountId: string;
  eventId?: string;
  occurredAt?: Date;
}

/** Wraps a payload in the envelope; the Kafka key is the account id (per-account ordering). */
export function encodeEvent<Payload>(
  kind: EventKind<Payload>,
  payload: Payload,
  meta: EventMeta,
): EncodedEvent {
  const envelope: Envelope = {
    eventId: meta.eventId ?? randomUUID(),
    eventType: kind.type,
    eventVersion: kind.version,
    occurredAt: meta.occurredAt ?? new Date(),
    accountId: meta.accountId,
    payload: Buffer.from(kind.codec.encode(payload).finish()),
  };
  return {
    key: meta.accountId,
    value: Envelope.encode(envelope).finish(),
    headers: { "event-type": kind.type, "event-version": String(kind.version) },
    envelope,
  };
}

export class UnknownEventError extends Error {}

export function decodeEnvelope(value: Uint8Array): Envelope {
  return Envelope.decode(value);
}

/** Decodes the payload if the envelope is of the given kind, or returns undefined for other kinds. */
export function decodePayload<Payload>(kind: EventKind<Payload>, envelope: Envelope): Payload | undefined {
  if (envelope.eventType !== kind.type || envelope.eventVersion !== kind.version) return undefined;
  return kind.codec.decode(envelope.payload);
}
