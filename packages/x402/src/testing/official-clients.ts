// Test support (not built): payments made as an agent makes them, with x402's official client packages.
import type { KeyPairSigner } from "@solana/kit";
import { x402Client } from "@x402/core/client";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { ExactSvmScheme } from "@x402/svm/exact/client";
import type { LocalAccount } from "viem";
import type { PaymentPayload, PaymentRequirements } from "../types.js";

export const RESOURCE = { url: "https://gateway.test/v1/chat/completions" };

/** @x402/fetch's choice on a 402: x402Client with the exact EVM scheme and stock spend controls. */
export function evmAgent(
  account: LocalAccount,
): (requirements: PaymentRequirements) => Promise<PaymentPayload> {
  const client = new x402Client().register("eip155:*", new ExactEvmScheme(account));
  return (requirements) =>
    client.createPaymentPayload({ x402Version: 2, resource: RESOURCE, accepts: [requirements] });
}

/** The same with the exact SVM scheme; it reads the mint and a blockhash from `rpcUrl`. */
export function svmAgent(
  signer: KeyPairSigner,
  rpcUrl: string,
): (requirements: PaymentRequirements) => Promise<PaymentPayload> {
  const client = new x402Client().register("solana:*", new ExactSvmScheme(signer, { rpcUrl }));
  return (requirements) =>
    client.createPaymentPayload({ x402Version: 2, resource: RESOURCE, accepts: [requirements] });
}
