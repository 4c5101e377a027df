import { type FacilitatorEvmSigner, toFacilitatorEvmSigner } from "@x402/evm";
import { createHardhatRuntimeEnvironment } from "hardhat/hre";
import type { NetworkConnection } from "hardhat/types/network";
import {
  type Address,
  createWalletClient,
  custom,
  defineChain,
  type Hex,
  type LocalAccount,
  publicActions,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { Network } from "../../types.js";
import { testMulticallBytecode, testUsdcAbi, testUsdcBytecode } from "./contracts-artifact.js";

/** Base Sepolia's chain id and USDC address: the test chain stands in for it by default (see startEvmChain). */
export const BASE_SEPOLIA_CHAIN_ID = 84532;
export const BASE_SEPOLIA_USDC: Address = "0x036CbD53842c5426634e7929541eC2318f3dCF7e";

export interface EvmChainOptions {
  /** Default 84532 (Base Sepolia), so x402's default asset table and client spend controls accept the token. */
  chainId?: number;
  /** Where the token's code is placed. Default: Base Sepolia's USDC address. */
  tokenAddress?: Address;
  /** Funded payer accounts to create. Default 3. */
  payers?: number;
  /** Token units (6 decimals) each payer gets. Default 100 USDC. */
  payerBalance?: bigint;
}

export interface EvmTestChain {
  network: Network;
  chainId: number;
  /** The USDC-like EIP-3009 token (contracts/TestUSDC.sol). */
  token: Address;
  /** The token's EIP-712 domain, for PaymentRequirements.extra. */
  tokenDomain: { name: string; version: string };
  /** Accounts holding tokens; their private keys are test keys of this chain only. */
  payers: Array<{ account: LocalAccount; privateKey: Hex }>;
  /** An account that receives payments (holds nothing at start). */
  payee: Address;
  /** The facilitator's gas-paying signer, for createLocalFacilitator. */
  facilitatorSigner: FacilitatorEvmSigner;
  /** Raw JSON-RPC into the chain (EIP-1193), for a served RPC endpoint. */
  request(method: string, params?: unknown[]): Promise<unknown>;
  balanceOf(owner: Address): Promise<bigint>;
  close(): Promise<void>;
}

const ETH = 10n ** 18n;
const MULTICALL3_ADDRESS: Address = "0xcA11bde05977b3631167028862bE2a173976CA11";

/**
 * An in-process EVM chain on Hardhat 3's EDR with the test token deployed and payers funded. By default it
 * stands in for Base Sepolia (chain id 84532, USDC's address and EIP-712 domain), because x402's client
 * only pays default assets unless told otherwise: an agent with stock settings can pay it unchanged.
 */
export async function startEvmChain(options: EvmChainOptions = {}): Promise<EvmTestChain> {
  const chainId = options.chainId ?? BASE_SEPOLIA_CHAIN_ID;
  const facilitatorKey = generatePrivateKey();
  const payerKeys = Array.from({ length: options.payers ?? 3 }, () => generatePrivateKey());
  const connection = await connect(chainId, facilitatorKey);
  const request = (method: string, params?: unknown[]) => connection.provider.request({ method, params });
  const chain = defineChain({
    id: chainId,
    name: `test chain ${chainId}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [] } },
  });
  const facilitator = privateKeyToAccount(facilitatorKey);
  const client = createWalletClient({
    account: facilitator,
    chain,
    // No retries: an in-process chain does not fail transiently, and viem would retry every revert 3 times.
    transport: custom({ request: ({ method, params }) => request(method, params) }, { retryCount: 0 }),
    // EDR mines each transaction at once: poll for receipts often instead of every 4 s (viem's default).
    pollingInterval: 20,
    cacheTime: 0,
  }).extend(publicActions);
  const token = options.tokenAddress ?? BASE_SEPOLIA_USDC;
  await placeContract(client, request, testUsdcBytecode, token);
  // Where public chains have Multicall3: x402 reads through it to name why a simulation failed.
  await placeContract(client, request, testMulticallBytecode, MULTICALL3_ADDRESS);
  const payers = payerKeys.map((privateKey) => ({ account: privateKeyToAccount(privateKey), privateKey }));
  for (const payer of payers) {
    const hash = await client.writeContract({
      address: token,
      abi: testUsdcAbi,
      functionName: "mint",
      args: [payer.account.address, options.payerBalance ?? 100_000_000n],
    });
    await client.waitForTransactionReceipt({ hash });
  }
  return {
    network: `eip155:${chainId}`,
    chainId,
    token,
    tokenDomain: { name: "USDC", version: "2" },
    payers,
    payee: privateKeyToAccount(generatePrivateKey()).address,
    facilitatorSigner: facilitatorSignerOf(client, facilitator.address),
    request,
    balanceOf: (owner) =>
      client.readContract({ address: token, abi: testUsdcAbi, functionName: "balanceOf", args: [owner] }),
    close: () => connection.close(),
  };
}

async function connect(chainId: number, facilitatorKey: Hex): Promise<NetworkConnection> {
  const hre = await createHardhatRuntimeEnvironment({
    networks: {
      x402: {
        type: "edr-simulated",
        chainId,
        // Only the facilitator needs ether (it pays gas); payers sign off-chain.
        accounts: [{ privateKey: facilitatorKey, balance: (1000n * ETH).toString() }],
      },
    },
  });
  return hre.network.create({ network: "x402" });
}

type ChainClient = ReturnType<typeof createWalletClient> & ReturnType<typeof publicActions>;

/**
 * Deploys a contract, then places its runtime code at `address` (immutables, such as the token's minter =
 * the deployer, are part of that code). Storage starts empty there, which is all these contracts need.
 */
async function placeContract(
  client: ChainClient,
  request: EvmTestChain["request"],
  bytecode: Hex,
  address: Address,
): Promise<void> {
  const account = client.account;
  if (!account) throw new Error("the chain client has no account");
  const hash = await client.deployContract({ abi: [], bytecode, account, chain: client.chain });
  const receipt = await client.waitForTransactionReceipt({ hash });
  if (!receipt.contractAddress) throw new Error(`no contract deployed for ${address}`);
  const code = await client.getCode({ address: receipt.contractAddress });
  await request("hardhat_setCode", [address, code]);
}

function facilitatorSignerOf(client: ChainClient, address: Address): FacilitatorEvmSigner {
  return toFacilitatorEvmSigner({
    address,
    readContract: (args) => client.readContract(args as Parameters<ChainClient["readContract"]>[0]),
    verifyTypedData: (args) => client.verifyTypedData(args as Parameters<ChainClient["verifyTypedData"]>[0]),
    writeContract: (args) => client.writeContract(args as Parameters<ChainClient["writeContract"]>[0]),
    sendTransaction: (args) => client.sendTransaction(args as Parameters<ChainClient["sendTransaction"]>[0]),
    waitForTransactionReceipt: (args) => client.waitForTransactionReceipt(args),
    getCode: (args) => client.getCode(args),
  });
}
