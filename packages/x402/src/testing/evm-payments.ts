// Test support (not built): payments made the way an agent makes them, with x402's official client.
import { x402Client } from "@x402/core/client";
import { authorizationTypes } from "@x402/evm";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { type Hex, type LocalAccount, toHex } from "viem";
import type { PaymentPayload, PaymentRequirements } from "../types.js";

/** Base Sepolia USDC and its EIP-712 domain, as x402's default asset table has them. */
export const BASE_SEPOLIA = "eip155:84532";
export const BASE_SEPOLIA_USDC = "0x036CbD53842c5426634e7929541eC2318f3dCF7e";

export function evmRequirements(
  payTo: string,
  overrides: Partial<PaymentRequirements> = {},
): PaymentRequirements {
  return {
    scheme: "exact",
    network: BASE_SEPOLIA,
    asset: BASE_SEPOLIA_USDC,
    amount: "10000",
    payTo,
    maxTimeoutSeconds: 300,
    extra: { name: "USDC", version: "2" },
    ...overrides,
  };
}

/** What @x402/fetch does on a 402: x402Client with the exact EVM scheme picks the offer and signs it. */
export async function payWithOfficialClient(
  account: LocalAccount,
  requirements: PaymentRequirements,
  resourceUrl = "https://gateway.test/v1/chat/completions",
): Promise<PaymentPayload> {
  const client = new x402Client().register("eip155:*", new ExactEvmScheme(account));
  // Spend controls stay on (the default an agent has) unless the asset is not a default one.
  return client.createPaymentPayload({
    x402Version: 2,
    resource: { url: resourceUrl },
    accepts: [requirements],
  });
}

export interface AuthorizationTerms {
  from: Hex;
  to: Hex;
  value: bigint;
  validAfter: bigint;
  validBefore: bigint;
  nonce: Hex;
}

/** Signs an EIP-3009 authorization with chosen terms (for windows the official client never produces). */
export async function signAuthorization(
  signer: LocalAccount,
  requirements: PaymentRequirements,
  terms: AuthorizationTerms,
): Promise<PaymentPayload> {
  const chainId = Number(requirements.network.split(":")[1]);
  const domain = {
    name: String(requirements.extra.name),
    version: String(requirements.extra.version),
    chainId,
    verifyingContract: requirements.asset as Hex,
  };
  if (!signer.signTypedData) throw new Error("the account cannot sign typed data");
  const signature = await signer.signTypedData({
    domain,
    types: authorizationTypes,
    primaryType: "TransferWithAuthorization",
    message: terms,
  });
  return {
    x402Version: 2,
    accepted: requirements,
    payload: {
      signature,
      authorization: {
        from: terms.from,
        to: terms.to,
        value: terms.value.toString(),
        validAfter: terms.validAfter.toString(),
        validBefore: terms.validBefore.toString(),
        nonce: terms.nonce,
      },
    },
  };
}

export function randomNonce(): Hex {
  return toHex(crypto.getRandomValues(new Uint8Array(32)));
}
