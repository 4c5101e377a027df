import {
  generateKeyPairSigner,
  getBase64Decoder,
  getBase64Encoder,
  getTransactionDecoder,
  type Instruction,
  type KeyPairSigner,
  signBytes,
} from "@solana/kit";
import {
  getSetComputeUnitLimitInstruction,
  getSetComputeUnitPriceInstruction,
} from "@solana-program/compute-budget";
import { beforeAll, describe, expect, it } from "vitest";
import {
  buildSvmPayment,
  MEMO_PROGRAM,
  type SvmPaymentOptions,
  svmRequirements,
} from "../testing/svm-payments.js";
import type { PaymentPayload, PaymentRequirements } from "../types.js";
import { type LocalCheckResult, verifyPaymentLocally } from "./index.js";

let payer: KeyPairSigner;
let stranger: KeyPairSigner;
let feePayer: KeyPairSigner;
let payee: KeyPairSigner;
let requirements: PaymentRequirements;
// Any 32 bytes: nothing here is sent to a chain.
let blockhash: string;

beforeAll(async () => {
  payer = await generateKeyPairSigner();
  stranger = await generateKeyPairSigner();
  feePayer = await generateKeyPairSigner();
  payee = await generateKeyPairSigner();
  requirements = svmRequirements(payee.address, feePayer.address);
  blockhash = (await generateKeyPairSigner()).address;
});

function pay(options: Partial<SvmPaymentOptions> = {}): Promise<PaymentPayload> {
  return buildSvmPayment({ payer, requirements, blockhash, ...options });
}

function reasonOf(result: LocalCheckResult): string {
  return result.ok ? "accepted" : result.reason;
}

function transactionBytes(payload: PaymentPayload): Uint8Array {
  return new Uint8Array(getBase64Encoder().encode((payload.payload as { transaction: string }).transaction));
}

function withTransaction(payload: PaymentPayload, bytes: Uint8Array): PaymentPayload {
  return { ...payload, payload: { transaction: getBase64Decoder().decode(bytes) } };
}

// Wire layout: one byte (compact-u16) for the signature count, then 64 bytes per signer in account
// order: the fee payer's slot (empty until the facilitator signs), then the payer's.
const PAYER_SIGNATURE_OFFSET = 1 + 64;

describe("verifyPaymentLocally, Solana exact (SPL TransferChecked)", () => {
  it("accepts the client layout and names the payer, amount and authorization id", async () => {
    const result = await verifyPaymentLocally(await pay(), requirements);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.payer).toBe(payer.address);
    expect(result.amount).toBe("10000");
    expect(result.authorizationId).toMatch(
      new RegExp(`^${requirements.network}:${payer.address}:[1-9A-HJ-NP-Za-km-z]{64,88}$`),
    );
  });

  it("refuses a transfer of another amount, and an accepted offer of another amount", async () => {
    expect(reasonOf(await verifyPaymentLocally(await pay({ amount: 9_999n }), requirements))).toBe(
      "invalid_exact_svm_payload_amount_mismatch",
    );
    const cheaper = { ...requirements, amount: "1" };
    expect(reasonOf(await verifyPaymentLocally(await pay({ requirements: cheaper }), requirements))).toBe(
      "invalid_exact_svm_payload_amount_mismatch",
    );
  });

  it("refuses a transfer to another payee's token account", async () => {
    expect(
      reasonOf(await verifyPaymentLocally(await pay({ destinationOwner: stranger.address }), requirements)),
    ).toBe("invalid_exact_svm_payload_recipient_mismatch");
  });

  it("refuses a transfer of another mint", async () => {
    expect(reasonOf(await verifyPaymentLocally(await pay({ mint: stranger.address }), requirements))).toBe(
      "invalid_exact_svm_payload_mint_mismatch",
    );
  });

  it("refuses a payment on another network or in another scheme", async () => {
    const mainnet = { ...requirements, network: "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp" as const };
    expect(reasonOf(await verifyPaymentLocally(await pay({ requirements: mainnet }), requirements))).toBe(
      "invalid_network",
    );
    const upto = { ...requirements, scheme: "upto" };
    expect(reasonOf(await verifyPaymentLocally(await pay({ requirements: upto }), requirements))).toBe(
      "unsupported_scheme",
    );
  });

  it("refuses a transaction whose fee payer is not the facilitator's, or requirements naming none", async () => {
    expect(
      reasonOf(await verifyPaymentLocally(await pay({ feePayer: stranger.address }), requirements)),
    ).toBe("invalid_exact_svm_payload_missing_fee_payer");
    const noFeePayer = { ...requirements, extra: {} };
    expect(reasonOf(await verifyPaymentLocally(await pay(), noFeePayer))).toBe(
      "invalid_exact_svm_payload_missing_fee_payer",
    );
  });

  it("refuses a transfer the fee payer itself would authorize", async () => {
    const asFeePayer = { ...requirements, extra: { feePayer: payer.address } };
    expect(reasonOf(await verifyPaymentLocally(await pay({ requirements: asFeePayer }), asFeePayer))).toBe(
      "invalid_exact_svm_payload_transaction_fee_payer_transferring_funds",
    );
  });

  it("refuses a priority fee above 5 lamports per compute unit", async () => {
    expect(
      reasonOf(await verifyPaymentLocally(await pay({ microLamportsPerUnit: 5_000_000n }), requirements)),
    ).toBe("accepted");
    expect(
      reasonOf(await verifyPaymentLocally(await pay({ microLamportsPerUnit: 5_000_001n }), requirements)),
    ).toBe("invalid_exact_svm_payload_transaction_instructions_compute_price_instruction_too_high");
  });

  it("refuses instruction layouts x402 does not allow", async () => {
    const limit = getSetComputeUnitLimitInstruction({ units: 20_000 });
    const price = getSetComputeUnitPriceInstruction({ microLamports: 1n });
    const memo: Instruction = { programAddress: MEMO_PROGRAM, accounts: [], data: new Uint8Array([0x61]) };
    const layouts: Array<[(transfer: Instruction) => Instruction[], string]> = [
      [(transfer) => [limit, transfer], "invalid_exact_svm_payload_transaction_instructions_length"],
      [
        (transfer) => [limit, price, transfer, memo, memo, memo, memo],
        "invalid_exact_svm_payload_transaction_instructions_length",
      ],
      [
        (transfer) => [price, limit, transfer],
        "invalid_exact_svm_payload_transaction_instructions_compute_limit_instruction",
      ],
      [
        (transfer) => [limit, memo, transfer],
        "invalid_exact_svm_payload_transaction_instructions_compute_price_instruction",
      ],
      [(transfer) => [limit, price, memo, transfer], "invalid_exact_svm_payload_no_transfer_instruction"],
    ];
    for (const [instructions, reason] of layouts) {
      expect(reasonOf(await verifyPaymentLocally(await pay({ instructions }), requirements))).toBe(reason);
    }
  });

  it("refuses an instruction after the transfer that is neither a memo nor Lighthouse", async () => {
    const limit = getSetComputeUnitLimitInstruction({ units: 20_000 });
    const price = getSetComputeUnitPriceInstruction({ microLamports: 1n });
    const memo: Instruction = { programAddress: MEMO_PROGRAM, accounts: [], data: new Uint8Array([0x61]) };
    const layouts: Array<[(transfer: Instruction) => Instruction[], string]> = [
      [(transfer) => [limit, price, transfer, limit], "invalid_exact_svm_payload_unknown_fourth_instruction"],
      [
        (transfer) => [limit, price, transfer, memo, price],
        "invalid_exact_svm_payload_unknown_fifth_instruction",
      ],
      [
        (transfer) => [limit, price, transfer, memo, memo, transfer],
        "invalid_exact_svm_payload_unknown_sixth_instruction",
      ],
      [(transfer) => [limit, price, transfer, memo, memo, memo], "accepted"],
    ];
    for (const [instructions, reason] of layouts) {
      expect(reasonOf(await verifyPaymentLocally(await pay({ instructions }), requirements))).toBe(reason);
    }
  });

  it("refuses a payment without exactly one memo carrying the seller's memo, when the requirements ask for one", async () => {
    const withMemo = { ...requirements, extra: { ...requirements.extra, memo: "order-42" } };
    const limit = getSetComputeUnitLimitInstruction({ units: 20_000 });
    const price = getSetComputeUnitPriceInstruction({ microLamports: 1n });
    const memo = (text: string): Instruction => ({
      programAddress: MEMO_PROGRAM,
      accounts: [],
      data: new TextEncoder().encode(text),
    });
    const layouts: Array<[(transfer: Instruction) => Instruction[], string]> = [
      [(transfer) => [limit, price, transfer, memo("order-42")], "accepted"],
      [(transfer) => [limit, price, transfer, memo("order-43")], "invalid_exact_svm_payload_memo_mismatch"],
      [(transfer) => [limit, price, transfer], "invalid_exact_svm_payload_memo_count"],
      [
        (transfer) => [limit, price, transfer, memo("order-42"), memo("order-42")],
        "invalid_exact_svm_payload_memo_count",
      ],
    ];
    for (const [instructions, reason] of layouts) {
      const payload = await pay({ requirements: withMemo, instructions });
      expect(reasonOf(await verifyPaymentLocally(payload, withMemo))).toBe(reason);
    }
  });

  it("refuses a tampered signature and a tampered message", async () => {
    const bytes = transactionBytes(await pay());
    const badSignature = bytes.slice();
    badSignature[PAYER_SIGNATURE_OFFSET + 5] = (badSignature[PAYER_SIGNATURE_OFFSET + 5] ?? 0) ^ 0xff;
    const payload = await pay();
    expect(reasonOf(await verifyPaymentLocally(withTransaction(payload, badSignature), requirements))).toBe(
      "invalid_exact_svm_payload_signature_invalid",
    );
    const badMessage = bytes.slice();
    // A v0 message ends with the memo's text and then the lookup-table count (0): changing the memo's
    // last character changes the message, not its layout.
    badMessage[badMessage.length - 2] = 0x7a;
    expect(reasonOf(await verifyPaymentLocally(withTransaction(payload, badMessage), requirements))).toBe(
      "invalid_exact_svm_payload_signature_invalid",
    );
  });

  it("refuses a transfer signed by another key than its authority", async () => {
    const bytes = transactionBytes(await pay());
    const { messageBytes } = getTransactionDecoder().decode(bytes);
    const forged = await signBytes(stranger.keyPair.privateKey, new Uint8Array(messageBytes));
    bytes.set(forged, PAYER_SIGNATURE_OFFSET);
    expect(reasonOf(await verifyPaymentLocally(withTransaction(await pay(), bytes), requirements))).toBe(
      "invalid_exact_svm_payload_signature_invalid",
    );
  });

  it("refuses a transaction the replay guard has seen", async () => {
    const payload = await pay();
    const first = await verifyPaymentLocally(payload, requirements);
    if (!first.ok) throw new Error(first.message);
    const seen = { has: async (id: string) => id === first.authorizationId };
    expect(reasonOf(await verifyPaymentLocally(payload, requirements, { seen }))).toBe(
      "duplicate_settlement",
    );
  });

  it("refuses transactions that do not decode, never by throwing", async () => {
    const payload = await pay();
    for (const transaction of ["", "!!!!", "AAAA", "bm90IGEgdHJhbnNhY3Rpb24=", 7, undefined]) {
      expect(
        reasonOf(await verifyPaymentLocally({ ...payload, payload: { transaction } }, requirements)),
      ).toBe("invalid_exact_svm_payload_transaction_could_not_be_decoded");
    }
    const truncated = transactionBytes(payload).slice(0, 100);
    expect(reasonOf(await verifyPaymentLocally(withTransaction(payload, truncated), requirements))).toBe(
      "invalid_exact_svm_payload_transaction_could_not_be_decoded",
    );
  });
});
