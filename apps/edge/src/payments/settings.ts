import type { Facilitator } from "@gw/x402";
import type { X402Config } from "./x402-config.js";

/** One network the gateway takes top-ups on: the token, who is paid, and the token's EIP-712 domain. */
export interface PaymentNetwork {
  /** CAIP-2, e.g. `eip155:84532`. */
  network: string;
  asset: string;
  payTo: string;
  /** EVM: the token's EIP-712 domain `{name, version}` the client signs under. Solana: none. */
  extra: Record<string, string> | undefined;
}

/** x402 on the edge: what is offered and who settles it. Absent = X402_ENABLED=false. */
export interface X402Settings {
  facilitator: Facilitator;
  networks: PaymentNetwork[];
  /** Top-up amounts in atomic USDC units (6 decimals), ascending: the first is the client's default pick. */
  amountsAtomic: string[];
  /** How long the client's authorization must stay valid (x402's maxTimeoutSeconds). */
  maxTimeoutSeconds: number;
  /** PUBLIC_BASE_URL (no trailing slash): the offers' resource URLs and the sign-in domain are on it. */
  publicBaseUrl: string;
}

interface KnownUsdc {
  address: string;
  /** EIP-712 domain; the name differs between Base mainnet ("USD Coin") and Base Sepolia ("USDC"). */
  extra?: Record<string, string>;
}

/** USDC where x402's own packages know it (@x402/evm default assets, @x402/svm constants). */
const KNOWN_USDC: Record<string, KnownUsdc> = {
  "eip155:8453": {
    address: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
    extra: { name: "USD Coin", version: "2" },
  },
  "eip155:84532": {
    address: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
    extra: { name: "USDC", version: "2" },
  },
  "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp": { address: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v" },
  "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1": { address: "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU" },
};

/** A USDC-like token named in X402_ASSETS signs under USDC's testnet domain. */
const DEFAULT_EVM_DOMAIN = { name: "USDC", version: "2" };

export const DEFAULT_MAX_TIMEOUT_SECONDS = 300;

/** Resolves each configured network's token; a network with none known and none configured is an error. */
export function paymentNetworks(config: X402Config): PaymentNetwork[] {
  return config.networks.map((network) => {
    const evm = network.startsWith("eip155:");
    const configured = config.assets[network];
    const known = KNOWN_USDC[network];
    const asset = configured ?? known?.address;
    if (!asset)
      throw new Error(`X402_ASSETS: no USDC address is known for ${network}; set ${network}=<token address>`);
    const payTo = evm ? config.payToEvm : config.payToSolana;
    if (!payTo) throw new Error(`no pay-to address configured for ${network}`);
    const extra = evm ? (configured ? DEFAULT_EVM_DOMAIN : (known?.extra ?? DEFAULT_EVM_DOMAIN)) : undefined;
    return { network, asset, payTo, extra };
  });
}

/** USD decimal string → atomic USDC units (6 decimals), exactly. */
export function usdToAtomicUsdc(amount: string): string {
  const match = /^(\d+)(?:\.(\d{1,6}))?$/.exec(amount);
  if (!match) throw new RangeError(`not a USD amount with at most 6 decimals: ${amount}`);
  const whole = BigInt(match[1] ?? "0");
  const fraction = BigInt((match[2] ?? "").padEnd(6, "0"));
  return (whole * 1_000_000n + fraction).toString();
}
