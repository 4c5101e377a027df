import { x402Facilitator } from "@x402/core/facilitator";
import type { FacilitatorEvmSigner } from "@x402/evm";
import { registerExactEvmScheme } from "@x402/evm/exact/facilitator";
import type { FacilitatorSvmSigner } from "@x402/svm";
import { registerExactSvmScheme } from "@x402/svm/exact/facilitator";
import type { Facilitator, Network, SupportedResponse } from "./types.js";

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
  const facilitator = new x402Facilitator();
  if (options.evm) {
    registerExactEvmScheme(facilitator, { signer: options.evm.signer, networks: options.evm.networks });
  }
  if (options.svm) {
    registerExactSvmScheme(facilitator, { signer: options.svm.signer, networks: options.svm.networks });
  }
  return {
    verify: (payload, requirements) => facilitator.verify(payload, requirements),
    settle: (payload, requirements) => facilitator.settle(payload, requirements),
    getSupported: async () => asSupportedResponse(facilitator.getSupported()),
  };
}

/** x402Facilitator types its networks as plain strings; the ones it lists are the CAIP-2 ids we registered. */
function asSupportedResponse(supported: ReturnType<x402Facilitator["getSupported"]>): SupportedResponse {
  return {
    ...supported,
    kinds: supported.kinds.map((kind) => ({ ...kind, network: kind.network as Network })),
  };
}
