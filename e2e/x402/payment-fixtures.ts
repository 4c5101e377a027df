import { randomBytes } from "node:crypto";
import { type Hex, type LocalAccount, toHex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";

/** Base Sepolia USDC, as the gateway offers it by default (X402_NETWORKS default). */
export const NETWORK = "eip155:84532";
export const USDC = "0x036CbD53842c5426634e7929541eC2318f3dCF7e";
export const ONE_USD = "1000000";

/** EIP-3009's typed data, as USDC (and x402's `authorizationTypes`) define it. */
const AUTHORIZATION_TYPES = {
  TransferWithAuthorization: [
    { name: "from", type: "address" },
    { name: "to", type: "address" },
    { name: "value", type: "uint256" },
    { name: "validAfter", type: "uint256" },
    { name: "validBefore", type: "uint256" },
    { name: "nonce", type: "bytes32" },
  ],
} as const;

export interface PaymentTerms {
  payTo: string;
  /** What the client claims to accept (x402 v2's `accepted`); defaults to the gateway's first offer. */
  accepted?: Record<string, unknown>;
  value?: string;
  to?: string;
  asset?: string;
  chainId?: number;
  validAfter?: bigint;
  validBefore?: bigint;
}

export function newPayer(): LocalAccount {
  return privateKeyToAccount(generatePrivateKey());
}

/** An x402 v2 exact-EVM payment payload, signed by `payer` under USDC's EIP-712 domain. */
export async function signPayment(
  payer: LocalAccount,
  terms: PaymentTerms,
): Promise<Record<string, unknown>> {
  const now = BigInt(Math.floor(Date.now() / 1000));
  const asset = terms.asset ?? USDC;
  const authorization = {
    from: payer.address,
    to: (terms.to ?? terms.payTo) as Hex,
    value: BigInt(terms.value ?? ONE_USD),
    validAfter: terms.validAfter ?? now - 600n,
    validBefore: terms.validBefore ?? now + 300n,
    nonce: toHex(randomBytes(32)),
  };
  if (!payer.signTypedData) throw new Error("the payer cannot sign typed data");
  const signature = await payer.signTypedData({
    domain: { name: "USDC", version: "2", chainId: terms.chainId ?? 84532, verifyingContract: asset as Hex },
    types: AUTHORIZATION_TYPES,
    primaryType: "TransferWithAuthorization",
    message: authorization,
  });
  return {
    x402Version: 2,
    accepted: terms.accepted ?? {
      scheme: "exact",
      network: NETWORK,
      asset: USDC,
      amount: ONE_USD,
      payTo: terms.payTo,
      maxTimeoutSeconds: 300,
      extra: { name: "USDC", version: "2" },
    },
    payload: {
      signature,
      authorization: {
        ...authorization,
        value: authorization.value.toString(),
        validAfter: authorization.validAfter.toString(),
        validBefore: authorization.validBefore.toString(),
      },
    },
  };
}

export function base64Json(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64");
}
