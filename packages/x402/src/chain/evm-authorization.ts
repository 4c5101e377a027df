import { createPublicClient, type Hex, http, parseAbi, parseAbiItem } from "viem";

// EIP-3009 (https://eips.ethereum.org/EIPS/eip-3009): a token records each authorization nonce it has
// consumed, per authorizer, readable with `authorizationState`, and emits `AuthorizationUsed` when a
// transferWithAuthorization spends one (`AuthorizationCanceled` when the payer cancels it instead).
const AUTHORIZATION_STATE = parseAbi([
  "function authorizationState(address authorizer, bytes32 nonce) view returns (bool)",
]);
const AUTHORIZATION_USED = parseAbiItem(
  "event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)",
);

export interface EvmAuthorization {
  /** The token contract (the offer's asset). */
  asset: string;
  /** The authorizer (`from`). */
  payer: string;
  /** bytes32 hex. */
  nonce: string;
}

export type EvmAuthorizationOutcome =
  /** Spent by a transfer: its transaction. */
  | { state: "used"; transaction: string }
  /** Not consumed (yet): it can still settle until its validBefore. */
  | { state: "unused" }
  /** Consumed, but no transfer found within the blocks searched (cancelled, or older than the search). */
  | { state: "consumed_without_transfer" };

export interface EvmChainReaderOptions {
  /** How far back from the head `AuthorizationUsed` is searched (public RPCs bound getLogs' range). */
  lookbackBlocks?: bigint;
  timeoutMs?: number;
}

/**
 * What a chain says about one EIP-3009 authorization, read over JSON-RPC (`eth_call`, `eth_getLogs`):
 * whether its nonce is consumed and, if so, by which transfer. A reconciler uses it to settle a settle
 * whose answer was lost, without asking the facilitator (which may be the part that failed).
 */
export async function readEvmAuthorization(
  rpcUrl: string,
  authorization: EvmAuthorization,
  options: EvmChainReaderOptions = {},
): Promise<EvmAuthorizationOutcome> {
  const client = createPublicClient({
    transport: http(rpcUrl, { timeout: options.timeoutMs ?? 10_000, retryCount: 0 }),
  });
  const asset = authorization.asset as Hex;
  const payer = authorization.payer as Hex;
  const nonce = authorization.nonce as Hex;
  const consumed = await client.readContract({
    address: asset,
    abi: AUTHORIZATION_STATE,
    functionName: "authorizationState",
    args: [payer, nonce],
  });
  if (!consumed) return { state: "unused" };
  const head = await client.getBlockNumber();
  const lookback = options.lookbackBlocks ?? 10_000n;
  const logs = await client.getLogs({
    address: asset,
    event: AUTHORIZATION_USED,
    args: { authorizer: payer, nonce },
    fromBlock: head > lookback ? head - lookback : 0n,
    toBlock: head,
  });
  const transaction = logs[0]?.transactionHash;
  return transaction ? { state: "used", transaction } : { state: "consumed_without_transfer" };
}
