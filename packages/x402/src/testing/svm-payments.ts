// Test support (not built): Solana "exact" payments with the layout x402's client builds (compute limit,
// compute price, TransferChecked, memo), for tests that need variations the client never produces.

import {
  type Address,
  appendTransactionMessageInstructions,
  type Blockhash,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  type Instruction,
  type KeyPairSigner,
  partiallySignTransactionMessageWithSigners,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
} from "@solana/kit";
import {
  getSetComputeUnitLimitInstruction,
  getSetComputeUnitPriceInstruction,
} from "@solana-program/compute-budget";
import {
  findAssociatedTokenPda,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from "@solana-program/token";
import type { PaymentPayload, PaymentRequirements } from "../types.js";

export const SOLANA_DEVNET = "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1";
export const SOLANA_DEVNET_USDC = "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU";
export const MEMO_PROGRAM = "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr" as Address;

export function svmRequirements(
  payTo: string,
  feePayer: string,
  overrides: Partial<PaymentRequirements> = {},
): PaymentRequirements {
  return {
    scheme: "exact",
    network: SOLANA_DEVNET,
    asset: SOLANA_DEVNET_USDC,
    amount: "10000",
    payTo,
    maxTimeoutSeconds: 300,
    extra: { feePayer },
    ...overrides,
  };
}

export interface SvmPaymentOptions {
  payer: KeyPairSigner;
  requirements: PaymentRequirements;
  /** A recent blockhash of the chain (any 32 bytes when nothing will be sent). */
  blockhash: string;
  amount?: bigint;
  /** Whose token account receives the transfer (default requirements.payTo). */
  destinationOwner?: string;
  mint?: string;
  feePayer?: string;
  microLamportsPerUnit?: bigint;
  /** Replaces the instruction list entirely. */
  instructions?: (transfer: Instruction) => Instruction[];
}

export async function buildSvmPayment(options: SvmPaymentOptions): Promise<PaymentPayload> {
  const { payer, requirements } = options;
  const mint = (options.mint ?? requirements.asset) as Address;
  const [source] = await findAssociatedTokenPda({
    owner: payer.address,
    mint,
    tokenProgram: TOKEN_PROGRAM_ADDRESS,
  });
  const [destination] = await findAssociatedTokenPda({
    owner: (options.destinationOwner ?? requirements.payTo) as Address,
    mint,
    tokenProgram: TOKEN_PROGRAM_ADDRESS,
  });
  const transfer = getTransferCheckedInstruction({
    source,
    mint,
    destination,
    authority: payer,
    amount: options.amount ?? BigInt(requirements.amount),
    decimals: 6,
  });
  const memo: Instruction = {
    programAddress: MEMO_PROGRAM,
    accounts: [],
    data: new TextEncoder().encode(crypto.randomUUID().replaceAll("-", "")),
  };
  const instructions = options.instructions?.(transfer) ?? [
    getSetComputeUnitLimitInstruction({ units: 20_000 }),
    getSetComputeUnitPriceInstruction({ microLamports: options.microLamportsPerUnit ?? 1n }),
    transfer,
    memo,
  ];
  const feePayer = (options.feePayer ?? String(requirements.extra.feePayer)) as Address;
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (tx) => setTransactionMessageFeePayer(feePayer, tx),
    (tx) =>
      setTransactionMessageLifetimeUsingBlockhash(
        { blockhash: options.blockhash as Blockhash, lastValidBlockHeight: 1_000n },
        tx,
      ),
    (tx) => appendTransactionMessageInstructions(instructions, tx),
  );
  const signed = await partiallySignTransactionMessageWithSigners(message);
  return {
    x402Version: 2,
    accepted: requirements,
    payload: { transaction: getBase64EncodedWireTransaction(signed) },
  };
}
