import { getBase64Decoder, getBase64Encoder, getTransactionDecoder, signBytes } from "@solana/kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyPaymentLocally } from "../local-check/index.js";
import { svmAgent } from "../testing/official-clients.js";
import { buildSvmPayment } from "../testing/svm-payments.js";
import type { PaymentPayload, PaymentRequirements } from "../types.js";
import { type FacilitatorServer, serveFacilitator, startTestnet, type Testnet } from "./index.js";
import { solanaRpcMethods } from "./svm/rpc.js";

let testnet: Testnet;
let rpcServer: FacilitatorServer;
let requirements: PaymentRequirements;
let pay: (requirements: PaymentRequirements) => Promise<PaymentPayload>;

beforeAll(async () => {
  testnet = await startTestnet({ evm: { payers: 1 }, svm: { payers: 2 } });
  // The official client reads the mint and a blockhash over Solana's JSON-RPC: served from the test chain.
  rpcServer = await serveFacilitator({
    facilitator: testnet.facilitator,
    rpc: { solana: solanaRpcMethods(testnet.svm.svm) },
  });
  requirements = testnet.requirements(testnet.svm.network, "10000");
  pay = svmAgent(payer().signer, `${rpcServer.url}/rpc/solana`);
});
afterAll(async () => {
  await rpcServer?.close();
  await testnet?.close();
});

function payer() {
  const first = testnet.svm.payers[0];
  if (!first) throw new Error("no payer");
  return first;
}

function stranger() {
  const second = testnet.svm.payers[1];
  if (!second) throw new Error("no second payer");
  return second.signer;
}

async function balances() {
  return {
    payer: await testnet.svm.balanceOf(payer().signer.address),
    payee: await testnet.svm.balanceOf(testnet.svm.payee),
  };
}

// Wire layout of the client's transaction: the signature count (one byte), then 64 bytes per signer in
// account order: the fee payer's slot (empty until the facilitator signs), then the payer's.
const PAYER_SIGNATURE_OFFSET = 1 + 64;

function transactionBytes(payload: PaymentPayload): Uint8Array {
  return new Uint8Array(getBase64Encoder().encode((payload.payload as { transaction: string }).transaction));
}

function withTransaction(payload: PaymentPayload, bytes: Uint8Array): PaymentPayload {
  return { ...payload, payload: { transaction: getBase64Decoder().decode(bytes) } };
}

async function withFlippedSignature(payload: PaymentPayload): Promise<PaymentPayload> {
  const bytes = transactionBytes(payload);
  bytes[PAYER_SIGNATURE_OFFSET + 7] = (bytes[PAYER_SIGNATURE_OFFSET + 7] ?? 0) ^ 0x01;
  return withTransaction(payload, bytes);
}

async function signedByStranger(payload: PaymentPayload): Promise<PaymentPayload> {
  const bytes = transactionBytes(payload);
  const { messageBytes } = getTransactionDecoder().decode(bytes);
  bytes.set(
    await signBytes(stranger().keyPair.privateKey, new Uint8Array(messageBytes)),
    PAYER_SIGNATURE_OFFSET,
  );
  return withTransaction(payload, bytes);
}

describe("Solana payments on the test chain (LiteSVM, USDC mint at devnet's address)", () => {
  it("an official client's payment passes the local check, verifies, settles, moves the tokens once, and a replay is refused", async () => {
    const before = await balances();
    const payload = await pay(requirements);
    const local = await verifyPaymentLocally(payload, requirements);
    expect(local).toMatchObject({ ok: true, payer: payer().signer.address, amount: "10000" });
    expect(await testnet.facilitator.verify(payload, requirements)).toMatchObject({
      isValid: true,
      payer: payer().signer.address,
    });
    const settled = await testnet.facilitator.settle(payload, requirements);
    expect(settled).toMatchObject({
      success: true,
      network: testnet.svm.network,
      payer: payer().signer.address,
    });
    expect(settled.transaction).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);
    expect(await balances()).toEqual({ payer: before.payer - 10000n, payee: before.payee + 10000n });

    if (!local.ok) return;
    const seen = { has: (id: string) => id === local.authorizationId };
    expect(await verifyPaymentLocally(payload, requirements, { seen })).toMatchObject({
      ok: false,
      reason: "duplicate_settlement",
    });
    // The chain has executed it: a new simulation fails, and settling again is refused by name.
    expect(await testnet.facilitator.verify(payload, requirements)).toMatchObject({
      isValid: false,
      invalidReason: "invalid_exact_svm_transaction_simulation_failed",
    });
    expect(await testnet.facilitator.settle(payload, requirements)).toMatchObject({
      success: false,
      errorReason: "duplicate_settlement",
    });
    expect(await balances()).toEqual({ payer: before.payer - 10000n, payee: before.payee + 10000n });
  });

  it("a transaction whose blockhash has expired passes the local check (it needs the chain) and is refused by the facilitator", async () => {
    const before = await balances();
    const payload = await pay(requirements);
    testnet.svm.svm.expireBlockhash();
    expect((await verifyPaymentLocally(payload, requirements)).ok).toBe(true);
    expect(await testnet.facilitator.settle(payload, requirements)).toMatchObject({
      success: false,
      errorReason: "invalid_exact_svm_transaction_simulation_failed",
    });
    expect(await balances()).toEqual(before);
  });

  // Each bad payment is refused by the gateway's local check and, on its own, by the facilitator (both
  // verify and settle), with a named reason, and no token moves.
  const badPayments: Array<[string, () => Promise<PaymentPayload>, string, string]> = [
    [
      "wrong amount",
      () => pay({ ...requirements, amount: "9999" }),
      "invalid_exact_svm_payload_amount_mismatch",
      "invalid_exact_svm_payload_amount_mismatch",
    ],
    [
      "wrong payee",
      () => pay({ ...requirements, payTo: stranger().address }),
      "invalid_exact_svm_payload_recipient_mismatch",
      "invalid_exact_svm_payload_recipient_mismatch",
    ],
    [
      "wrong asset",
      // The official client reads the mint from the chain; a mint the chain lacks is built by hand.
      () =>
        buildSvmPayment({
          payer: payer().signer,
          requirements,
          blockhash: testnet.svm.svm.latestBlockhash(),
          mint: stranger().address,
        }),
      "invalid_exact_svm_payload_mint_mismatch",
      "invalid_exact_svm_payload_mint_mismatch",
    ],
    [
      "wrong network",
      async () =>
        withAccepted(await pay(requirements), { network: "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp" }),
      "invalid_network",
      "invalid_exact_svm_network_mismatch",
    ],
    [
      "wrong scheme",
      async () => withAccepted(await pay(requirements), { scheme: "upto" }),
      "unsupported_scheme",
      "invalid_exact_svm_unsupported_scheme",
    ],
    [
      "tampered signature",
      async () => withFlippedSignature(await pay(requirements)),
      "invalid_exact_svm_payload_signature_invalid",
      "invalid_exact_svm_payload_signature_invalid",
    ],
    [
      "signature by another key",
      async () => signedByStranger(await pay(requirements)),
      "invalid_exact_svm_payload_signature_invalid",
      "invalid_exact_svm_payload_signature_invalid",
    ],
  ];

  it.each(badPayments)(
    "%s: refused locally and by the facilitator, nothing moves",
    async (_, make, localReason, facilitatorReason) => {
      const before = await balances();
      const payload = await make();
      expect(await verifyPaymentLocally(payload, requirements)).toMatchObject({
        ok: false,
        reason: localReason,
      });
      expect(await testnet.facilitator.verify(payload, requirements)).toMatchObject({
        isValid: false,
        invalidReason: facilitatorReason,
      });
      expect(await testnet.facilitator.settle(payload, requirements)).toMatchObject({
        success: false,
        errorReason: facilitatorReason,
      });
      expect(await balances()).toEqual(before);
    },
  );
});

function withAccepted(payload: PaymentPayload, changes: Partial<PaymentRequirements>): PaymentPayload {
  return { ...payload, accepted: { ...payload.accepted, ...changes } };
}
