import { generateKeyPairSigner, type KeyPairSigner } from "@solana/kit";
import { beforeAll, describe, expect, it } from "vitest";
import { buildSvmPayment, svmRequirements } from "../testing/svm-payments.js";
import type { PaymentPayload, PaymentRequirements } from "../types.js";
import { verifyPaymentLocally } from "./index.js";

// The Solana check's refusals of a payment's own claims (`accepted`) and of a transaction that is not
// base64, which svm.test.ts does not reach: the transfer itself is right, only the named field is not.
let payer: KeyPairSigner;
let requirements: PaymentRequirements;
let payment: PaymentPayload;

beforeAll(async () => {
  payer = await generateKeyPairSigner();
  const [payee, feePayer, blockhash] = await Promise.all([1, 2, 3].map(() => generateKeyPairSigner()));
  requirements = svmRequirements(payee?.address as string, feePayer?.address as string);
  payment = await buildSvmPayment({ payer, requirements, blockhash: blockhash?.address as string });
});

const reasonOf = async (payload: unknown) => {
  const result = await verifyPaymentLocally(payload as PaymentPayload, requirements);
  return result.ok ? "accepted" : result.reason;
};
const claiming = (changes: Record<string, unknown>) => ({
  ...payment,
  accepted: { ...payment.accepted, ...changes },
});
const withTransaction = (transaction: unknown) => ({
  ...payment,
  payload: { ...payment.payload, transaction },
});

describe("verifyPaymentLocally, Solana: the payment's claims and its transaction's encoding", () => {
  it("accepts the payment as built", async () => {
    expect(await reasonOf(payment)).toBe("accepted");
  });

  it("refuses an accepted offer of another asset, payee or amount, or an amount that is not a number", async () => {
    const stranger = (await generateKeyPairSigner()).address;
    expect(await reasonOf(claiming({ asset: stranger }))).toBe("invalid_exact_svm_payload_mint_mismatch");
    expect(await reasonOf(claiming({ payTo: stranger }))).toBe(
      "invalid_exact_svm_payload_recipient_mismatch",
    );
    expect(await reasonOf(claiming({ amount: "10001" }))).toBe("invalid_exact_svm_payload_amount_mismatch");
    expect(await reasonOf(claiming({ amount: "ten" }))).toBe("invalid_exact_svm_payload_amount_mismatch");
  });

  it("refuses a transaction that is missing, empty or not base64", async () => {
    const transaction = (payment.payload as { transaction: string }).transaction;
    for (const bad of [undefined, 7, "", `${transaction}!`, `!${transaction}`, "AAAA"]) {
      const reason = await reasonOf(withTransaction(bad));
      expect([bad === undefined ? "undefined" : String(bad).slice(0, 8), reason]).toEqual([
        bad === undefined ? "undefined" : String(bad).slice(0, 8),
        "invalid_exact_svm_payload_transaction_could_not_be_decoded",
      ]);
    }
  });
});
