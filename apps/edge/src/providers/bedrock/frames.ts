import { EventStreamCodec } from "@smithy/core/event-streams";
import { fromUtf8, toUtf8 } from "@smithy/core/serde";

/** One decoded `application/vnd.amazon.eventstream` message: its string headers and JSON payload text. */
export interface EventMessage {
  readonly headers: Readonly<Record<string, string>>;
  readonly payload: string;
}

// The prelude's first field: each message's total length, big-endian (AWS event stream encoding).
const PRELUDE_LENGTH = 4;

/**
 * Splits Bedrock's binary event stream into messages as network reads arrive: a message's first four
 * bytes are its total length, and a read may end anywhere inside one. Each whole message is decoded
 * (prelude and message CRC-32 checked, headers parsed) by the AWS SDK's own codec, so a corrupt frame
 * throws instead of being misread.
 */
export class EventStreamFrames {
  private readonly codec = new EventStreamCodec(toUtf8, fromUtf8);
  private pending: Buffer = Buffer.alloc(0);

  push(bytes: Uint8Array): EventMessage[] {
    this.pending = this.pending.length === 0 ? Buffer.from(bytes) : Buffer.concat([this.pending, bytes]);
    const messages: EventMessage[] = [];
    while (this.pending.length >= PRELUDE_LENGTH) {
      const length = this.pending.readUInt32BE(0);
      if (this.pending.length < length) break;
      const frame = this.pending.subarray(0, length);
      this.pending = this.pending.subarray(length);
      messages.push(this.decode(frame));
    }
    return messages;
  }

  /** Bytes left over after the body ended: a message cut short. */
  get incomplete(): boolean {
    return this.pending.length > 0;
  }

  private decode(frame: Uint8Array): EventMessage {
    const message = this.codec.decode(frame);
    const headers: Record<string, string> = {};
    for (const [name, header] of Object.entries(message.headers))
      if (header.type === "string") headers[name] = header.value;
    return { headers, payload: Buffer.from(message.body).toString("utf8") };
  }
}

/** Encodes one message (the fake Bedrock and the tests build streams with the same codec). */
export function encodeEventMessage(headers: Readonly<Record<string, string>>, payload: string): Uint8Array {
  const codec = new EventStreamCodec(toUtf8, fromUtf8);
  return codec.encode({
    headers: Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [name, { type: "string" as const, value }]),
    ),
    body: Buffer.from(payload, "utf8"),
  });
}
