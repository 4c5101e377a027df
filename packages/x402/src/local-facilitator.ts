import { x402Facilitator } from "@x402/core/facilitator";
import type { FacilitatorEvmSigner } from "@x402/evm";
import { ExactEvmScheme } from "@x402/evm/exact/facilitator";
import type { FacilitatorSvmSigner } from "@x402/svm";
import { ExactSvmScheme } from "@x402/svm/exact/facilitator";
import type {
  Facilitator,
  Network,
  PaymentPayload,
  PaymentRequirements,
  SupportedResponse,
} from "./types.js";

export interface LocalFacilitatorOptions {
  /** EVM chains this facilitator settles on, with a signer that can reach them and pay gas. */
  evm?: { signer: FacilitatorEvmSigner; networks: Network[] };
  /** Solana clusters this facilitator settles on, with a fee payer that can reach them. */
  svm?: { signer: FacilitatorSvmSigner; networks: Network[] };
}

/**
 * An in-process facilitator: x402's own `x402Facilitator` with the official "exact" schemes of
 * `@x402/evm` and `@x402/svm` registered, so verification and settlement follow x402's code exactly.
 * It talks to whatever chains the signers reach (the in-process test chains in tests).
 */
export function createLocalFacilitator(options: LocalFacilitatorOptions): Facilitator {
  if (!options.evm && !options.svm) throw new Error("createLocalFacilitator needs an evm or svm signer");
  // x402 v2 only, on exactly the networks given. (x402's register helpers also register v1 for every
  // v1 network name, mainnets included, which this facilitator's chains are not; the gateway restates a
  // v1 payment in v2 form before it asks a facilitator.)
  const facilitator = new x402Facilitator();
  if (options.evm) facilitator.register(options.evm.networks, new ExactEvmScheme(options.evm.signer));
  if (options.svm) facilitator.register(options.svm.networks, new ExactSvmScheme(options.svm.signer));
  const supported = asSupportedResponse(facilitator.getSupported());
  return {
    verify: async (payload, requirements) => {
      const unsupported = unsupportedReason(supported, payload, requirements);
      if (unsupported)
        return { isValid: false, invalidReason: unsupported, invalidMessage: describe(requirements) };
      return facilitator.verify(payload, requirements);
    },
    settle: async (payload, requirements) => {
      const unsupported = unsupportedReason(supported, payload, requirements);
      if (unsupported) {
        return {
          success: false,
          errorReason: unsupported,
          errorMessage: describe(requirements),
          transaction: "",
          network: requirements.network,
        };
      }
      return facilitator.settle(payload, requirements);
    },
    getSupported: async () => supported,
  };
}

/**
 * x402Facilitator throws for a version, scheme or network nothing is registered for; a facilitator
 * answers that with a verdict (x402's reason names), so a caller can tell "not for us" from "broken".
 */
function unsupportedReason(
  supported: SupportedResponse,
  payload: PaymentPayload,
  requirements: PaymentRequirements,
): string | undefined {
  const kinds = supported.kinds;
  if (!kinds.some((kind) => kind.x402Version === payload.x402Version)) return "invalid_x402_version";
  if (!kinds.some((kind) => kind.scheme === requirements.scheme)) return "unsupported_scheme";
  if (!kinds.some((kind) => kind.scheme === requirements.scheme && kind.network === requirements.network)) {
    return "invalid_network";
  }
  if (requirements.network.startsWith("eip155:") && !isEip3009Payment(payload, requirements)) {
    return "unsupported_payload_type";
  }
  return undefined;
}

/**
 * Only EIP-3009 authorizations are settled here. @x402/evm would also take a Permit2 payload, and on a
 * chain without x402's Permit2 proxy its simulation and settlement "succeed" as calls to an address with
 * no code, moving no money (seen on the test chain): a facilitator that must not lie refuses them.
 */
function isEip3009Payment(payload: PaymentPayload, requirements: PaymentRequirements): boolean {
  const inner: unknown = payload.payload;
  const authorization =
    typeof inner === "object" && inner !== null
      ? (inner as Record<string, unknown>).authorization
      : undefined;
  const permit2 = typeof inner === "object" && inner !== null && "permit2Authorization" in inner;
  const permit2Asked = requirements.extra?.assetTransferMethod === "permit2";
  return typeof authorization === "object" && authorization !== null && !permit2 && !permit2Asked;
}

function describe(requirements: PaymentRequirements): string {
  return `this facilitator does not settle scheme ${requirements.scheme} on ${requirements.network}`;
}

/** x402Facilitator types its networks as plain strings; the ones it lists are the CAIP-2 ids we registered. */
function asSupportedResponse(supported: ReturnType<x402Facilitator["getSupported"]>): SupportedResponse {
  return {
    ...supported,
    kinds: supported.kinds.map((kind) => ({ ...kind, network: kind.network as Network })),
  };
}
