import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyPaymentLocally } from "../local-check/index.js";
import { randomNonce, signAuthorization } from "../testing/evm-payments.js";
import { evmAgent } from "../testing/official-clients.js";
import type { PaymentPayload, PaymentRequirements } from "../types.js";
import { startTestnet, type Testnet } from "./index.js";

let testnet: Testnet;
let requirements: PaymentRequirements;
let pay: (requirements: PaymentRequirements) => Promise<PaymentPayload>;

beforeAll(async () => {
  testnet = await startTestnet({ evm: { payers: 2 }, svm: { payers: 1 } });
  requirements = testnet.requirements(testnet.evm.network, "10000");
  pay = evmAgent(payer().account);
});
afterAll(() => testnet?.close());

function payer() {
  const first = testnet.evm.payers[0];
  if (!first) throw new Error("no payer");
  return first;
}

function stranger() {
  const second = testnet.evm.payers[1];
  if (!second) throw new Error("no second payer");
  return second.account;
}

function nowSeconds(): bigint {
  return BigInt(Math.floor(Date.now() / 1000));
}

/** A payment signed with chosen terms, for windows and signers the official client never produces. */
function signed(changes: {
  validAfter?: bigint;
  validBefore?: bigint;
  signer?: ReturnType<typeof stranger>;
}) {
  return signAuthorization(changes.signer ?? payer().account, requirements, {
    from: payer().account.address,
    to: testnet.evm.payee,
    value: 10000n,
    validAfter: changes.validAfter ?? 0n,
    validBefore: changes.validBefore ?? nowSeconds() + 300n,
    nonce: randomNonce(),
  });
}

async function balances() {
  return {
    payer: await testnet.evm.balanceOf(payer().account.address),
    payee: await testnet.evm.balanceOf(testnet.evm.payee),
  };
}

describe("EVM payments on the test chain (Hardhat EDR, EIP-3009 test USDC at Base Sepolia's address)", () => {
  it("an official client's payment passes the local check, verifies, settles, moves the tokens once, and a replay is refused", async () => {
    const before = await balances();
    const payload = await pay(requirements);
    const local = await verifyPaymentLocally(payload, requirements);
    expect(local.ok).toBe(true);
    expect(await testnet.facilitator.verify(payload, requirements)).toMatchObject({
      isValid: true,
      payer: payer().account.address,
    });
    const settled = await testnet.facilitator.settle(payload, requirements);
    expect(settled).toMatchObject({ success: true, network: "eip155:84532", payer: payer().account.address });
    expect(settled.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await balances()).toEqual({ payer: before.payer - 10000n, payee: before.payee + 10000n });

    if (!local.ok) return;
    const seen = { has: (id: string) => id === local.authorizationId };
    expect(await verifyPaymentLocally(payload, requirements, { seen })).toMatchObject({
      ok: false,
      reason: "invalid_exact_evm_nonce_already_used",
    });
    expect(await testnet.facilitator.verify(payload, requirements)).toMatchObject({
      isValid: false,
      invalidReason: "invalid_exact_evm_nonce_already_used",
    });
    expect(await testnet.facilitator.settle(payload, requirements)).toMatchObject({
      success: false,
      errorReason: "invalid_exact_evm_nonce_already_used",
    });
    expect(await balances()).toEqual({ payer: before.payer - 10000n, payee: before.payee + 10000n });
  });

  it("a payer without tokens passes the local check and is refused by the facilitator: insufficient balance", async () => {
    const broke = evmAgent(privateKeyToAccount(generatePrivateKey()));
    const payload = await broke(requirements);
    expect((await verifyPaymentLocally(payload, requirements)).ok).toBe(true);
    expect(await testnet.facilitator.verify(payload, requirements)).toMatchObject({
      isValid: false,
      invalidReason: "invalid_exact_evm_insufficient_balance",
    });
    expect(await testnet.facilitator.settle(payload, requirements)).toMatchObject({
      success: false,
      errorReason: "invalid_exact_evm_insufficient_balance",
    });
  });

  // Each bad payment is refused by the gateway's local check and, on its own, by the facilitator (both
  // verify and settle), with a named reason, and no token moves.
  const badPayments: Array<[string, () => Promise<PaymentPayload>, string, string]> = [
    [
      "wrong amount",
      () => pay({ ...requirements, amount: "9999" }),
      "invalid_exact_evm_payload_authorization_value_mismatch",
      "invalid_exact_evm_payload_authorization_value_mismatch",
    ],
    [
      "wrong payee",
      () => pay({ ...requirements, payTo: stranger().address }),
      "invalid_exact_evm_recipient_mismatch",
      "invalid_exact_evm_recipient_mismatch",
    ],
    [
      "wrong asset",
      () =>
        signAuthorization(
          payer().account,
          { ...requirements, asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913" },
          {
            from: payer().account.address,
            to: testnet.evm.payee,
            value: 10000n,
            validAfter: 0n,
            validBefore: nowSeconds() + 300n,
            nonce: randomNonce(),
          },
        ),
      "invalid_exact_evm_asset_mismatch",
      // The asset is the EIP-712 domain's verifying contract: signed for another token, the signature fails.
      "invalid_exact_evm_signature",
    ],
    [
      "wrong network",
      async () => withAccepted(await pay(requirements), { network: "eip155:8453" }),
      "invalid_network",
      "invalid_exact_evm_network_mismatch",
    ],
    [
      "wrong scheme",
      async () => withAccepted(await pay(requirements), { scheme: "upto" }),
      "unsupported_scheme",
      "invalid_exact_evm_scheme",
    ],
    [
      "expired authorization",
      () => signed({ validBefore: nowSeconds() - 1n }),
      "invalid_exact_evm_payload_authorization_valid_before",
      "invalid_exact_evm_payload_authorization_valid_before",
    ],
    [
      "not yet valid",
      () => signed({ validAfter: nowSeconds() + 120n }),
      "invalid_exact_evm_payload_authorization_valid_after",
      "invalid_exact_evm_payload_authorization_valid_after",
    ],
    [
      "tampered signature",
      async () => withFlippedSignature(await pay(requirements)),
      "invalid_exact_evm_signature",
      "invalid_exact_evm_signature",
    ],
    [
      "signature by another address",
      () => signed({ signer: stranger() }),
      "invalid_exact_evm_signature",
      "invalid_exact_evm_signature",
    ],
    [
      "Permit2 payload",
      () => pay({ ...requirements, extra: { ...requirements.extra, assetTransferMethod: "permit2" } }),
      "unsupported_payload_type",
      "unsupported_payload_type",
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

  it("requirements for a network the facilitator does not serve are a verdict, not an error", async () => {
    const payload = await pay(requirements);
    const elsewhere = { ...requirements, network: "eip155:8453" as const };
    expect(await testnet.facilitator.verify(payload, elsewhere)).toMatchObject({
      isValid: false,
      invalidReason: "invalid_network",
    });
    expect(await testnet.facilitator.settle(payload, elsewhere)).toMatchObject({
      success: false,
      errorReason: "invalid_network",
    });
  });
});

function withAccepted(payload: PaymentPayload, changes: Partial<PaymentRequirements>): PaymentPayload {
  return { ...payload, accepted: { ...payload.accepted, ...changes } };
}

function withFlippedSignature(payload: PaymentPayload): PaymentPayload {
  const signature = String((payload.payload as { signature: string }).signature);
  const flipped = `${signature.slice(0, 10)}${signature[10] === "0" ? "1" : "0"}${signature.slice(11)}`;
  return { ...payload, payload: { ...payload.payload, signature: flipped } };
}
