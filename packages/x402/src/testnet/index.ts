import { createLocalFacilitator } from "../local-facilitator.js";
import type { Facilitator, Network, PaymentRequirements } from "../types.js";
import { type EvmChainOptions, type EvmTestChain, startEvmChain } from "./evm/chain.js";
import { type SvmChainOptions, type SvmTestChain, startSvmChain } from "./svm/chain.js";

export { BASE_SEPOLIA_CHAIN_ID, BASE_SEPOLIA_USDC, type EvmTestChain } from "./evm/chain.js";
export { type FacilitatorServer, serveFacilitator } from "./server.js";
export { SOLANA_DEVNET, SOLANA_DEVNET_USDC, type SvmTestChain } from "./svm/chain.js";

export interface TestnetOptions {
  evm?: EvmChainOptions;
  svm?: SvmChainOptions;
}

export interface Testnet {
  evm: EvmTestChain;
  svm: SvmTestChain;
  networks: Network[];
  /** A facilitator that verifies and settles on these chains (x402's own scheme code). */
  facilitator: Facilitator;
  /** "exact" requirements for `amount` atomic units of the chain's USDC to `payTo` (default: its payee). */
  requirements(network: Network, amount: string, payTo?: string): PaymentRequirements;
  /** Token units `owner` holds on `network`. */
  balanceOf(network: Network, owner: string): Promise<bigint>;
  close(): Promise<void>;
}

/**
 * Both in-process chains with the test USDC, funded payers, a payee each, and a facilitator over them.
 * Everything is in this process: nothing is fetched, nothing listens until `serveFacilitator` is called.
 */
export async function startTestnet(options: TestnetOptions = {}): Promise<Testnet> {
  const [evm, svm] = await Promise.all([startEvmChain(options.evm), startSvmChain(options.svm)]);
  const facilitator = createLocalFacilitator({
    evm: { signer: evm.facilitatorSigner, networks: [evm.network] },
    svm: { signer: svm.facilitatorSigner, networks: [svm.network] },
  });
  const requirements = (network: Network, amount: string, payTo?: string): PaymentRequirements => {
    if (network === evm.network) {
      return {
        scheme: "exact",
        network,
        asset: evm.token,
        amount,
        payTo: payTo ?? evm.payee,
        maxTimeoutSeconds: 300,
        extra: { ...evm.tokenDomain },
      };
    }
    if (network === svm.network) {
      return {
        scheme: "exact",
        network,
        asset: svm.mint,
        amount,
        payTo: payTo ?? svm.payee,
        maxTimeoutSeconds: 300,
        extra: { feePayer: svm.feePayer },
      };
    }
    throw new Error(`the testnet has no network ${network}`);
  };
  const balanceOf = (network: Network, owner: string): Promise<bigint> => {
    if (network === evm.network && /^0x[0-9a-fA-F]{40}$/.test(owner))
      return evm.balanceOf(owner as `0x${string}`);
    if (network === svm.network) return svm.balanceOf(owner as Parameters<SvmTestChain["balanceOf"]>[0]);
    throw new Error(`no balance of ${owner} on ${network}`);
  };
  return {
    evm,
    svm,
    networks: [evm.network, svm.network],
    facilitator,
    requirements,
    balanceOf,
    close: () => evm.close(),
  };
}
