import type { Network, SettleResponse, SupportedKind, SupportedResponse, VerifyResponse } from "./types.js";

// Hand-written shape checks for what a facilitator answers: the fields the gateway relies on must be
// there with the right types; everything else the facilitator adds is passed through untouched.

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function optionalString(value: unknown): boolean {
  return value === undefined || typeof value === "string";
}

function optionalObject(value: unknown): boolean {
  return value === undefined || isObject(value);
}

/**
 * A network id as facilitators write it: CAIP-2 (`eip155:84532`) for x402 v2, a plain name
 * (`base-sepolia`) in v1 kinds and answers, which real facilitators list beside the v2 ones.
 */
export function isNetwork(value: unknown): value is Network {
  return typeof value === "string" && /^[-a-z0-9]{2,32}(:[-_a-zA-Z0-9]{1,64})?$/.test(value);
}

export function parseVerifyResponse(json: unknown): VerifyResponse | undefined {
  if (!isObject(json) || typeof json.isValid !== "boolean") return undefined;
  if (
    !optionalString(json.invalidReason) ||
    !optionalString(json.invalidMessage) ||
    !optionalString(json.payer)
  ) {
    return undefined;
  }
  if (!optionalObject(json.extensions)) return undefined;
  return json as VerifyResponse;
}

export function parseSettleResponse(json: unknown): SettleResponse | undefined {
  if (!isObject(json) || typeof json.success !== "boolean") return undefined;
  if (typeof json.transaction !== "string" || !isNetwork(json.network)) return undefined;
  if (
    !optionalString(json.errorReason) ||
    !optionalString(json.errorMessage) ||
    !optionalString(json.payer)
  ) {
    return undefined;
  }
  if (!optionalString(json.amount) || !optionalObject(json.extensions)) return undefined;
  // A success must name its transaction: the gateway records it as the proof of payment.
  if (json.success && json.transaction === "") return undefined;
  return json as SettleResponse;
}

function isSupportedKind(value: unknown): value is SupportedKind {
  return (
    isObject(value) &&
    typeof value.x402Version === "number" &&
    typeof value.scheme === "string" &&
    isNetwork(value.network) &&
    optionalObject(value.extra)
  );
}

export function parseSupportedResponse(json: unknown): SupportedResponse | undefined {
  if (!isObject(json) || !Array.isArray(json.kinds) || !json.kinds.every(isSupportedKind)) return undefined;
  const extensions = json.extensions ?? [];
  if (!Array.isArray(extensions) || !extensions.every((e) => typeof e === "string")) return undefined;
  const signers = json.signers ?? {};
  if (!isObject(signers)) return undefined;
  for (const list of Object.values(signers)) {
    if (!Array.isArray(list) || !list.every((s) => typeof s === "string")) return undefined;
  }
  return { kinds: json.kinds, extensions, signers: signers as Record<string, string[]> };
}
