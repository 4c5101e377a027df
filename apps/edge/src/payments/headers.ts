import { GatewayError } from "@gw/errors";
import { DEFAULT_MAX_JSON_DEPTH, exceedsDepth } from "@gw/http";

/** x402's header names (v2 and v1) as Node spells request headers (lower case). */
export const PAYMENT_SIGNATURE = "payment-signature";
export const X_PAYMENT = "x-payment";
export const PAYMENT_REQUIRED_HEADER = "PAYMENT-REQUIRED";
export const PAYMENT_RESPONSE_HEADER = "PAYMENT-RESPONSE";
export const X_PAYMENT_RESPONSE_HEADER = "X-PAYMENT-RESPONSE";

/** Standard base64 with padding, as x402's reference decoder requires (base64url is refused there). */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
/** A payment header is a few kilobytes; a Solana transaction is the largest payload (≤ 1232 bytes). */
const MAX_HEADER_LENGTH = 16_384;

/** JSON → UTF-8 → base64, the encoding of every x402 header. */
export function encodeX402Header(value: unknown): string {
  return Buffer.from(JSON.stringify(value), "utf8").toString("base64");
}

/** The payment a client sent, before any field of it is trusted. */
export interface PaymentHeader {
  /** Which header carried it: v2 `PAYMENT-SIGNATURE` or v1 `X-PAYMENT` (the answer uses the same generation). */
  header: "v2" | "v1";
  payload: Record<string, unknown>;
}

/** The payment header of a request, if any; v2's header wins when a client sends both. */
export function paymentHeaderOf(
  headers: Record<string, string | string[] | undefined>,
): PaymentHeader | undefined {
  for (const [name, header] of [
    [PAYMENT_SIGNATURE, "v2"],
    [X_PAYMENT, "v1"],
  ] as const) {
    const raw = headers[name];
    if (raw === undefined) continue;
    return { header, payload: decodeX402Header(Array.isArray(raw) ? (raw[0] ?? "") : raw, name) };
  }
  return undefined;
}

/** base64 JSON object → the object; anything else is the client's mistake: 400 naming what is wrong. */
export function decodeX402Header(raw: string, name: string): Record<string, unknown> {
  const value = raw.trim();
  if (value.length === 0 || value.length > MAX_HEADER_LENGTH || !BASE64.test(value) || value.length % 4 !== 0)
    throw malformed(name, "is not standard base64");
  const text = Buffer.from(value, "base64").toString("utf8");
  // The payload is forwarded (written out recursively): no deeper than a body may be (issue 33).
  if (exceedsDepth(text, DEFAULT_MAX_JSON_DEPTH)) throw malformed(name, "nests too deeply");
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw malformed(name, "is base64 but not JSON");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw malformed(name, "is JSON but not an object");
  return parsed as Record<string, unknown>;
}

function malformed(name: string, what: string): GatewayError {
  return new GatewayError("invalid_request", `the ${name.toUpperCase()} header ${what}`, {
    code: "payment_malformed",
    metadata: { payment_reason: "invalid_payload" },
  });
}
