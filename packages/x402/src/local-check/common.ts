import type { LocalInvalidReason } from "./reasons.js";
import type { LocalCheckFailed } from "./result.js";

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function refuse(reason: LocalInvalidReason, message: string): LocalCheckFailed {
  return { ok: false, reason, message };
}

/** Token amounts and EIP-3009 times are decimal strings of unsigned integers up to 2^256. */
const UINT_DECIMAL = /^(0|[1-9][0-9]{0,77})$/;

export function parseUint(value: unknown): bigint | undefined {
  return typeof value === "string" && UINT_DECIMAL.test(value) ? BigInt(value) : undefined;
}

/** The fields of PaymentRequirements both families read, checked for type before anything compares them. */
export function hasRequirementFields(value: unknown): value is Json & {
  scheme: string;
  network: string;
  asset: string;
  payTo: string;
  amount: string;
} {
  return (
    isObject(value) &&
    typeof value.scheme === "string" &&
    typeof value.network === "string" &&
    typeof value.asset === "string" &&
    typeof value.payTo === "string" &&
    typeof value.amount === "string"
  );
}

/** Shortens attacker-supplied strings before they go into a message. */
export function quote(value: unknown): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 77)}...` : text);
}
