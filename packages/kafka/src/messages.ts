import type { ConsumedMessage } from "@gw/events";
import type { IHeaders, KafkaMessage } from "kafkajs";

export function toConsumed(topic: string, partition: number, message: KafkaMessage): ConsumedMessage {
  return {
    topic,
    partition,
    offset: message.offset,
    key: message.key ? message.key.toString("utf8") : "",
    value: message.value ? new Uint8Array(message.value) : new Uint8Array(0),
    headers: headersToStrings(message.headers),
  };
}

function headersToStrings(headers: IHeaders | undefined): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, raw] of Object.entries(headers ?? {})) {
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (value !== undefined) result[name] = value.toString();
  }
  return result;
}
