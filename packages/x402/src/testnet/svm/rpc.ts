import { type Address, getBase64Decoder, isAddress } from "@solana/kit";
import { getTokenDecoder } from "@solana-program/token";
import type { LiteSVM } from "litesvm";
import { INVALID_PARAMS, METHOD_NOT_FOUND, RpcError, type RpcMethods } from "../json-rpc.js";

/** How many slots a blockhash stays usable on Solana; reported as lastValidBlockHeight's distance. */
const BLOCKHASH_VALIDITY_SLOTS = 150n;

/**
 * The part of Solana's JSON-RPC that an x402 client needs to build a payment (the mint's account, a recent
 * blockhash) plus balance reads, answered from the LiteSVM chain. Shapes as Solana's RPC documents them.
 */
export function solanaRpcMethods(svm: LiteSVM): RpcMethods {
  const context = () => ({ slot: svm.getClock().slot });
  const address = (value: unknown): Address => {
    if (typeof value !== "string" || !isAddress(value)) throw new RpcError(INVALID_PARAMS, "invalid address");
    return value;
  };
  return async (method, params) => {
    switch (method) {
      case "getLatestBlockhash":
        return {
          context: context(),
          value: {
            blockhash: svm.latestBlockhash(),
            lastValidBlockHeight: svm.getClock().slot + BLOCKHASH_VALIDITY_SLOTS,
          },
        };
      case "getAccountInfo": {
        const account = svm.getAccount(address(params[0]));
        if (!account.exists) return { context: context(), value: null };
        return {
          context: context(),
          value: {
            data: [getBase64Decoder().decode(account.data), "base64"],
            executable: account.executable,
            lamports: account.lamports,
            owner: account.programAddress,
            rentEpoch: 0,
            space: account.data.length,
          },
        };
      }
      case "getBalance":
        return { context: context(), value: svm.getBalance(address(params[0])) ?? 0n };
      case "getTokenAccountBalance": {
        const account = svm.getAccount(address(params[0]));
        if (!account.exists) throw new RpcError(INVALID_PARAMS, "could not find account");
        const { amount } = getTokenDecoder().decode(account.data);
        return {
          context: context(),
          value: { amount: amount.toString(), decimals: 6, uiAmountString: formatUnits(amount, 6) },
        };
      }
      case "getSlot":
      case "getBlockHeight":
        return svm.getClock().slot;
      default:
        throw new RpcError(METHOD_NOT_FOUND, `method ${method} is not served by the test chain`);
    }
  };
}

function formatUnits(amount: bigint, decimals: number): string {
  const text = amount.toString().padStart(decimals + 1, "0");
  const whole = text.slice(0, -decimals);
  const fraction = text.slice(-decimals).replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : whole;
}
