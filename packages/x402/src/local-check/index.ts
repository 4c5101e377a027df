import type { PaymentPayload, PaymentRequirements } from "../types.js";
import { hasRequirementFields, isObject, quote, refuse } from "./common.js";
import { checkExactEvm } from "./evm.js";
import type { LocalCheckOptions, LocalCheckResult } from "./result.js";
import { checkExactSvm } from "./svm.js";

export { LOCAL_INVALID_REASONS, type LocalInvalidReason } from "./reasons.js";
export type {
  LocalCheckFailed,
  LocalCheckOptions,
  LocalCheckPassed,
  LocalCheckResult,
  SeenAuthorizations,
} from "./result.js";

/**
 * The gateway's own check of a v2 "exact" payment against the requirements it offered, before any
 * facilitator is called: cheap, offline, and enough to refuse garbage, replays and forgeries. Passing it
 * proves nothing about balances or settlement; only the facilitator's settle does.
 */
export async function verifyPaymentLocally(
  payload: PaymentPayload,
  requirements: PaymentRequirements,
  options: LocalCheckOptions = {},
): Promise<LocalCheckResult> {
  // The payload arrives from a client header: every field is checked for type before it is trusted.
  const untrusted: unknown = payload;
  if (!isObject(untrusted)) return refuse("invalid_payload", "the payment payload is not an object");
  if (untrusted.x402Version !== 2) {
    return refuse("invalid_x402_version", `x402Version ${quote(untrusted.x402Version)} is not 2`);
  }
  const accepted = untrusted.accepted;
  const schemePayload = untrusted.payload;
  if (!hasRequirementFields(accepted) || !isObject(schemePayload)) {
    return refuse(
      "invalid_payload",
      "the payment payload needs `accepted` requirements and a scheme `payload` object",
    );
  }
  if (accepted.scheme !== "exact" || requirements.scheme !== "exact") {
    return refuse("unsupported_scheme", `scheme ${quote(accepted.scheme)} is not supported; only "exact" is`);
  }
  if (accepted.network !== requirements.network) {
    return refuse(
      "invalid_network",
      `network ${quote(accepted.network)} is not the required ${requirements.network}`,
    );
  }
  if (requirements.network.startsWith("eip155:")) {
    return checkExactEvm(accepted, schemePayload, requirements, options);
  }
  if (requirements.network.startsWith("solana:")) {
    return checkExactSvm(accepted, schemePayload, requirements, options);
  }
  return refuse("invalid_network", `network ${quote(requirements.network)} is neither eip155 nor solana`);
}
