import {
  type Address,
  createKeyPairSignerFromPrivateKeyBytes,
  generateKeyPairSigner,
  getAddressEncoder,
  getBase64EncodedWireTransaction,
  getBase64Encoder,
  getSignatureFromTransaction,
  getTransactionDecoder,
  type KeyPairSigner,
  lamports,
  none,
  partiallySignTransaction,
  type Signature,
  type Transaction,
} from "@solana/kit";
import {
  AccountState,
  findAssociatedTokenPda,
  getMintEncoder,
  getTokenDecoder,
  getTokenEncoder,
  TOKEN_PROGRAM_ADDRESS,
} from "@solana-program/token";
import type { FacilitatorSvmSigner } from "@x402/svm";
import { FailedTransactionMetadata, LiteSVM } from "litesvm";
import type { Network } from "../../types.js";

/** Solana devnet and its USDC mint: the test chain stands in for them (x402's SVM code knows no other cluster). */
export const SOLANA_DEVNET: Network = "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1";
export const SOLANA_DEVNET_USDC = "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU" as Address;

const USDC_DECIMALS = 6;
const MINT_SIZE = 82n;
const TOKEN_ACCOUNT_SIZE = 165n;
const SOL = 1_000_000_000n;

export interface SvmChainOptions {
  /** Funded payer keypairs to create. Default 3. */
  payers?: number;
  /** Token units (6 decimals) each payer gets. Default 100 USDC. */
  payerBalance?: bigint;
}

export interface SvmTestChain {
  network: Network;
  /** The USDC mint (at devnet USDC's address), SPL Token program, 6 decimals. */
  mint: Address;
  /** Keypairs holding tokens; test keys of this chain only. `secretKey` is the 64-byte Solana keypair. */
  payers: Array<{ signer: KeyPairSigner; secretKey: Uint8Array }>;
  /** An account that receives payments; its token account exists with 0 tokens. */
  payee: Address;
  /** The facilitator's fee payer: requirements.extra.feePayer. */
  feePayer: Address;
  facilitatorSigner: FacilitatorSvmSigner;
  /** The chain itself, for a served RPC endpoint. */
  svm: LiteSVM;
  /** Creates `owner`'s token account for the mint if missing (a payee needs one to be paid). */
  openTokenAccount(owner: Address): Promise<Address>;
  /** Token units `owner` holds in its associated token account (0 when it has none). */
  balanceOf(owner: Address): Promise<bigint>;
}

/**
 * An in-process Solana chain on LiteSVM with the USDC mint and token accounts written straight into its
 * accounts (no mint authority transactions needed), a funded fee payer and funded payers. It stands in for
 * devnet because x402's SVM scheme accepts only mainnet, devnet and testnet network ids.
 */
export async function startSvmChain(options: SvmChainOptions = {}): Promise<SvmTestChain> {
  const svm = new LiteSVM();
  const feePayer = await generateKeyPairSigner();
  svm.airdrop(feePayer.address, lamports(100n * SOL));
  writeMint(svm, SOLANA_DEVNET_USDC);
  const tokens = tokenAccounts(svm, SOLANA_DEVNET_USDC);
  const payers: SvmTestChain["payers"] = [];
  for (let i = 0; i < (options.payers ?? 3); i++) {
    const payer = await exportableKeyPair();
    await tokens.write(payer.signer.address, options.payerBalance ?? 100_000_000n);
    payers.push(payer);
  }
  const payee = (await generateKeyPairSigner()).address;
  await tokens.write(payee, 0n);
  return {
    network: SOLANA_DEVNET,
    mint: SOLANA_DEVNET_USDC,
    payers,
    payee,
    feePayer: feePayer.address,
    facilitatorSigner: liteSvmFacilitatorSigner(svm, feePayer),
    svm,
    openTokenAccount: tokens.open,
    balanceOf: tokens.balanceOf,
  };
}

/** A keypair whose secret can be handed to another process (WebCrypto keys are not exportable by default). */
async function exportableKeyPair(): Promise<{ signer: KeyPairSigner; secretKey: Uint8Array }> {
  const seed = crypto.getRandomValues(new Uint8Array(32));
  const signer = await createKeyPairSignerFromPrivateKeyBytes(seed);
  const secretKey = new Uint8Array(64);
  secretKey.set(seed);
  secretKey.set(getAddressEncoder().encode(signer.address), 32);
  return { signer, secretKey };
}

function writeMint(svm: LiteSVM, mint: Address): void {
  const data = getMintEncoder().encode({
    mintAuthority: none(),
    supply: 0n,
    decimals: USDC_DECIMALS,
    isInitialized: true,
    freezeAuthority: none(),
  });
  svm.setAccount({
    address: mint,
    data: new Uint8Array(data),
    executable: false,
    lamports: lamports(svm.minimumBalanceForRentExemption(MINT_SIZE)),
    programAddress: TOKEN_PROGRAM_ADDRESS,
    space: MINT_SIZE,
  });
}

function tokenAccounts(svm: LiteSVM, mint: Address) {
  const addressOf = async (owner: Address) =>
    (await findAssociatedTokenPda({ owner, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS }))[0];
  const write = async (owner: Address, amount: bigint): Promise<Address> => {
    const address = await addressOf(owner);
    const data = getTokenEncoder().encode({
      mint,
      owner,
      amount,
      delegate: none(),
      state: AccountState.Initialized,
      isNative: none(),
      delegatedAmount: 0n,
      closeAuthority: none(),
    });
    svm.setAccount({
      address,
      data: new Uint8Array(data),
      executable: false,
      lamports: lamports(svm.minimumBalanceForRentExemption(TOKEN_ACCOUNT_SIZE)),
      programAddress: TOKEN_PROGRAM_ADDRESS,
      space: TOKEN_ACCOUNT_SIZE,
    });
    return address;
  };
  const balanceOf = async (owner: Address): Promise<bigint> => {
    const account = svm.getAccount(await addressOf(owner));
    return account.exists ? getTokenDecoder().decode(account.data).amount : 0n;
  };
  const open = async (owner: Address): Promise<Address> =>
    svm.getAccount(await addressOf(owner)).exists ? addressOf(owner) : write(owner, 0n);
  return { write, balanceOf, open };
}

/**
 * x402's facilitator signer over LiteSVM: the fee payer co-signs, LiteSVM simulates and executes. LiteSVM
 * executes a transaction when it is sent, so confirmation only looks the signature up.
 */
function liteSvmFacilitatorSigner(svm: LiteSVM, feePayer: KeyPairSigner): FacilitatorSvmSigner {
  const decode = (base64: string): Transaction =>
    getTransactionDecoder().decode(getBase64Encoder().encode(base64));
  const coSign = async (base64: string): Promise<Transaction> =>
    partiallySignTransaction([feePayer.keyPair], decode(base64));
  return {
    getAddresses: () => [feePayer.address],
    signTransaction: async (transaction, payer) => {
      if (payer !== feePayer.address) throw new Error(`no signer for fee payer ${payer}`);
      return getBase64EncodedWireTransaction(await coSign(transaction));
    },
    // x402 simulates before the fee payer has signed; LiteSVM checks every signature, so the simulated
    // copy carries the fee payer's signature (the payer's own is checked as it is).
    simulateTransaction: async (transaction) => {
      const result = svm.simulateTransaction(await coSign(transaction));
      if (result instanceof FailedTransactionMetadata)
        throw new Error(`simulation failed: ${result.toString()}`);
    },
    sendTransaction: async (transaction) => {
      const decoded = decode(transaction);
      const result = svm.sendTransaction(decoded);
      if (result instanceof FailedTransactionMetadata)
        throw new Error(`transaction failed: ${result.toString()}`);
      return getSignatureFromTransaction(decoded);
    },
    confirmTransaction: async (signature) => {
      const result = svm.getTransaction(signature as Signature);
      if (!result) throw new Error(`transaction ${signature} is unknown`);
      if (result instanceof FailedTransactionMetadata)
        throw new Error(`transaction ${signature} failed: ${result.toString()}`);
    },
  };
}
