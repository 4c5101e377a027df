import { METHOD_NOT_FOUND, RpcError, type RpcMethods } from "../json-rpc.js";
import type { EvmTestChain } from "./chain.js";

/**
 * Ethereum JSON-RPC into the test chain for other processes (a client reading balances or sending its
 * own transactions). The chain's administrative methods (hardhat_*, evm_*) stay in-process.
 */
export function evmRpcMethods(chain: EvmTestChain): RpcMethods {
  return async (method, params) => {
    if (!/^(eth|net|web3)_/.test(method))
      throw new RpcError(METHOD_NOT_FOUND, `method ${method} is not served`);
    return chain.request(method, params);
  };
}
