import {
  type Address,
  getBase58Decoder,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getPublicKeyFromAddress,
  getTransactionDecoder,
  isAddress,
  type SignatureBytes,
  verifySignature,
} from "@solana/kit";
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import type { PaymentRequirements } from "../types.js";
import { type Json, parseUint, quote, refuse } from "./common.js";
import type { LocalCheckOptions, LocalCheckResult } from "./result.js";

const TOKEN_2022_PROGRAM_ADDRESS = "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb";
const COMPUTE_BUDGET_PROGRAM_ADDRESS = "ComputeBudget111111111111111111111111111111";
/** The only programs x402 allows after the transfer: memos (a payment's nonce or the seller's reference) and Lighthouse (wallet guards). */
const MEMO_PROGRAM_ADDRESS = "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr";
const LIGHTHOUSE_PROGRAM_ADDRESS = "L2TExMFKdjpN9kozasaurPirfHy9P8sbXoAN1qA3S95";
const UNKNOWN_OPTIONAL_INSTRUCTION = [
  "invalid_exact_svm_payload_unknown_fourth_instruction",
  "invalid_exact_svm_payload_unknown_fifth_instruction",
  "invalid_exact_svm_payload_unknown_sixth_instruction",
] as const;
/** x402's cap on the priority fee the facilitator's fee payer is made to pay: 5 lamports per compute unit. */
const MAX_COMPUTE_UNIT_PRICE_MICROLAMPORTS = 5_000_000n;
const SET_COMPUTE_UNIT_LIMIT = 2;
const SET_COMPUTE_UNIT_PRICE = 3;
const TRANSFER_CHECKED = 12;

interface Instruction {
  program: Address;
  accounts: Address[];
  data: Uint8Array;
}

interface DecodedTransaction {
  messageBytes: Uint8Array;
  signatures: Record<string, SignatureBytes | null>;
  feePayer: Address;
  instructions: Instruction[];
}

interface Transfer {
  program: Address;
  source: Address;
  mint: Address;
  destination: Address;
  authority: Address;
  amount: bigint;
}

/**
 * The Solana "exact" scheme: the partially signed transaction's layout as x402 prescribes it (compute
 * budget, TransferChecked to the payee's token account, optional memo), decoded and checked offline, and
 * the payer's ed25519 signature over the message verified. Blockhash expiry needs the chain and is left to
 * the facilitator.
 */
export async function checkExactSvm(
  accepted: Json,
  schemePayload: Json,
  requirements: PaymentRequirements,
  options: LocalCheckOptions,
): Promise<LocalCheckResult> {
  const feePayer = requirements.extra?.feePayer;
  if (typeof feePayer !== "string" || !isAddress(feePayer)) {
    return refuse(
      "invalid_exact_svm_payload_missing_fee_payer",
      "the requirements name no fee payer (extra.feePayer)",
    );
  }
  const offerMismatch = compareAccepted(accepted, requirements);
  if (offerMismatch) return offerMismatch;
  const transaction = decodeTransaction(schemePayload.transaction);
  if (!transaction) {
    return refuse(
      "invalid_exact_svm_payload_transaction_could_not_be_decoded",
      "payload.transaction is not a base64 Solana transaction without lookup tables",
    );
  }
  if (transaction.feePayer !== feePayer) {
    return refuse(
      "invalid_exact_svm_payload_missing_fee_payer",
      `the transaction's fee payer is ${transaction.feePayer}, not ${feePayer}`,
    );
  }
  const layout = checkLayout(transaction.instructions, feePayer);
  if (!layout.ok) return layout.failure;
  const extras = checkOptionalInstructions(transaction.instructions.slice(3), requirements.extra?.memo);
  if (extras) return extras;
  const termsMismatch = await checkTransfer(layout.transfer, requirements);
  if (termsMismatch) return termsMismatch;
  const signature = transaction.signatures[layout.transfer.authority];
  if (!signature || !(await signatureValid(layout.transfer.authority, signature, transaction.messageBytes))) {
    return refuse(
      "invalid_exact_svm_payload_signature_invalid",
      `the transaction is not signed by ${layout.transfer.authority}`,
    );
  }
  const authorizationId = `${requirements.network}:${layout.transfer.authority}:${getBase58Decoder().decode(signature)}`;
  if (await options.seen?.has(authorizationId)) {
    return refuse("duplicate_settlement", "this transaction was already presented");
  }
  return {
    ok: true,
    payer: layout.transfer.authority,
    network: requirements.network,
    amount: layout.transfer.amount.toString(),
    authorizationId,
  };
}

function compareAccepted(accepted: Json, requirements: PaymentRequirements): LocalCheckResult | undefined {
  if (accepted.asset !== requirements.asset) {
    return refuse(
      "invalid_exact_svm_payload_mint_mismatch",
      `asset ${quote(accepted.asset)} is not the required ${requirements.asset}`,
    );
  }
  if (accepted.payTo !== requirements.payTo) {
    return refuse(
      "invalid_exact_svm_payload_recipient_mismatch",
      `payee ${quote(accepted.payTo)} is not the required ${requirements.payTo}`,
    );
  }
  if (
    parseUint(accepted.amount) === undefined ||
    parseUint(accepted.amount) !== parseUint(requirements.amount)
  ) {
    return refuse(
      "invalid_exact_svm_payload_amount_mismatch",
      `amount ${quote(accepted.amount)} is not the required ${quote(requirements.amount)}`,
    );
  }
  return undefined;
}

function decodeTransaction(base64: unknown): DecodedTransaction | undefined {
  if (typeof base64 !== "string" || base64.length === 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(base64))
    return undefined;
  try {
    const transaction = getTransactionDecoder().decode(getBase64Encoder().encode(base64));
    const message = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes);
    // x402 clients build version 0 messages; the newer v1 layout is not part of the scheme.
    if (message.version === 1) return undefined;
    const accounts = message.staticAccounts;
    const resolve = (index: number): Address => {
      const account = accounts[index];
      // An index past the static accounts points into an address lookup table, which needs the chain.
      if (account === undefined) throw new Error("account outside the static accounts");
      return account;
    };
    const feePayer = accounts[0];
    if (feePayer === undefined) return undefined;
    const instructions = message.instructions.map((instruction) => ({
      program: resolve(instruction.programAddressIndex),
      accounts: (instruction.accountIndices ?? []).map(resolve),
      data: new Uint8Array(instruction.data ?? []),
    }));
    return {
      messageBytes: new Uint8Array(transaction.messageBytes),
      signatures: transaction.signatures,
      feePayer,
      instructions,
    };
  } catch {
    return undefined;
  }
}

type Layout = { ok: true; transfer: Transfer } | { ok: false; failure: LocalCheckResult };

function checkLayout(instructions: Instruction[], feePayer: Address): Layout {
  const fail = (failure: LocalCheckResult): Layout => ({ ok: false, failure });
  if (instructions.length < 3 || instructions.length > 6) {
    return fail(
      refuse(
        "invalid_exact_svm_payload_transaction_instructions_length",
        `${instructions.length} instructions, x402 allows 3 to 6`,
      ),
    );
  }
  const [limit, price, transferInstruction] = instructions;
  if (!isComputeBudget(limit, SET_COMPUTE_UNIT_LIMIT)) {
    return fail(
      refuse(
        "invalid_exact_svm_payload_transaction_instructions_compute_limit_instruction",
        "the first instruction must set the compute unit limit",
      ),
    );
  }
  if (!price || !isComputeBudget(price, SET_COMPUTE_UNIT_PRICE) || price.data.length !== 9) {
    return fail(
      refuse(
        "invalid_exact_svm_payload_transaction_instructions_compute_price_instruction",
        "the second instruction must set the compute unit price",
      ),
    );
  }
  if (readU64(price.data, 1) > MAX_COMPUTE_UNIT_PRICE_MICROLAMPORTS) {
    return fail(
      refuse(
        "invalid_exact_svm_payload_transaction_instructions_compute_price_instruction_too_high",
        "the compute unit price exceeds 5 lamports",
      ),
    );
  }
  const transfer = transferInstruction && parseTransferChecked(transferInstruction);
  if (!transfer) {
    return fail(
      refuse(
        "invalid_exact_svm_payload_no_transfer_instruction",
        "the third instruction must be a token TransferChecked",
      ),
    );
  }
  // The fee payer signs last, on the facilitator's side: it must not be an account any instruction moves.
  if (
    transfer.authority === feePayer ||
    instructions.some((instruction) => instruction.accounts.includes(feePayer))
  ) {
    return fail(
      refuse(
        "invalid_exact_svm_payload_transaction_fee_payer_transferring_funds",
        "the fee payer appears in an instruction",
      ),
    );
  }
  return { ok: true, transfer };
}

/** After the transfer: only memos and Lighthouse; the seller's memo, when it asks for one, exactly once. */
function checkOptionalInstructions(
  optional: Instruction[],
  expectedMemo: unknown,
): LocalCheckResult | undefined {
  const unknown = optional.findIndex(
    (instruction) =>
      instruction.program !== MEMO_PROGRAM_ADDRESS && instruction.program !== LIGHTHOUSE_PROGRAM_ADDRESS,
  );
  const reason = UNKNOWN_OPTIONAL_INSTRUCTION[unknown];
  if (reason) return refuse(reason, `instruction ${unknown + 4} is neither a memo nor Lighthouse`);
  if (typeof expectedMemo !== "string" || expectedMemo === "") return undefined;
  const memos = optional.filter((instruction) => instruction.program === MEMO_PROGRAM_ADDRESS);
  const [memo] = memos;
  if (!memo || memos.length !== 1)
    return refuse(
      "invalid_exact_svm_payload_memo_count",
      `${memos.length} memos, the payment needs exactly one`,
    );
  if (new TextDecoder().decode(memo.data) !== expectedMemo) {
    return refuse(
      "invalid_exact_svm_payload_memo_mismatch",
      "the memo is not the one the requirements ask for",
    );
  }
  return undefined;
}

function isComputeBudget(
  instruction: Instruction | undefined,
  discriminator: number,
): instruction is Instruction {
  return instruction?.program === COMPUTE_BUDGET_PROGRAM_ADDRESS && instruction.data[0] === discriminator;
}

function parseTransferChecked(instruction: Instruction): Transfer | undefined {
  const isTokenProgram =
    instruction.program === TOKEN_PROGRAM_ADDRESS || instruction.program === TOKEN_2022_PROGRAM_ADDRESS;
  if (!isTokenProgram || instruction.data[0] !== TRANSFER_CHECKED || instruction.data.length !== 10)
    return undefined;
  const [source, mint, destination, authority] = instruction.accounts;
  if (!source || !mint || !destination || !authority) return undefined;
  return {
    program: instruction.program,
    source,
    mint,
    destination,
    authority,
    amount: readU64(instruction.data, 1),
  };
}

async function checkTransfer(
  transfer: Transfer,
  requirements: PaymentRequirements,
): Promise<LocalCheckResult | undefined> {
  if (transfer.mint !== requirements.asset) {
    return refuse(
      "invalid_exact_svm_payload_mint_mismatch",
      `the transfer moves mint ${transfer.mint}, not ${requirements.asset}`,
    );
  }
  if (!isAddress(requirements.payTo)) {
    return refuse(
      "invalid_exact_svm_payload_recipient_mismatch",
      `payTo ${quote(requirements.payTo)} is not a Solana address`,
    );
  }
  const [payeeAccount] = await findAssociatedTokenPda({
    owner: requirements.payTo,
    mint: transfer.mint,
    tokenProgram: transfer.program,
  });
  if (transfer.destination !== payeeAccount) {
    return refuse(
      "invalid_exact_svm_payload_recipient_mismatch",
      `the transfer goes to ${transfer.destination}, not ${requirements.payTo}'s token account`,
    );
  }
  if (transfer.amount !== parseUint(requirements.amount)) {
    return refuse(
      "invalid_exact_svm_payload_amount_mismatch",
      `the transfer is for ${transfer.amount}, the required amount is exactly ${quote(requirements.amount)}`,
    );
  }
  return undefined;
}

async function signatureValid(
  signer: Address,
  signature: SignatureBytes,
  message: Uint8Array,
): Promise<boolean> {
  try {
    return await verifySignature(await getPublicKeyFromAddress(signer), signature, message);
  } catch {
    return false;
  }
}

function readU64(data: Uint8Array, offset: number): bigint {
  return new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(offset, true);
}
