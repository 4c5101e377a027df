import { authorizationTypes } from "@x402/evm";
import { type Hex, recoverTypedDataAddress } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import {
  BASE_SEPOLIA_USDC,
  evmRequirements,
  payWithOfficialClient,
  randomNonce,
  signAuthorization,
} from "../testing/evm-payments.js";
import type { PaymentPayload } from "../types.js";
import { type LocalCheckResult, verifyPaymentLocally } from "./index.js";

const payer = privateKeyToAccount(generatePrivateKey());
const stranger = privateKeyToAccount(generatePrivateKey());
const payee = privateKeyToAccount(generatePrivateKey()).address;
const requirements = evmRequirements(payee);

function reasonOf(result: LocalCheckResult): string {
  return result.ok ? "accepted" : result.reason;
}

/** A copy of the payload with its scheme payload's authorization fields replaced. */
function withAuthorization(payload: PaymentPayload, changes: Record<string, unknown>): PaymentPayload {
  const inner = payload.payload as { authorization: Record<string, unknown>; signature: string };
  return { ...payload, payload: { ...inner, authorization: { ...inner.authorization, ...changes } } };
}

/** The EIP-712 data the payload's authorization was signed as (for recovering its signer in a test). */
function typedData(payload: PaymentPayload) {
  const a = (payload.payload as { authorization: Record<string, string> }).authorization;
  return {
    domain: { name: "USDC", version: "2", chainId: 84532, verifyingContract: BASE_SEPOLIA_USDC as Hex },
    types: authorizationTypes,
    primaryType: "TransferWithAuthorization" as const,
    message: {
      from: a.from as Hex,
      to: a.to as Hex,
      value: BigInt(a.value ?? 0),
      validAfter: BigInt(a.validAfter ?? 0),
      validBefore: BigInt(a.validBefore ?? 0),
      nonce: a.nonce as Hex,
    },
  };
}

function withSignature(payload: PaymentPayload, signature: unknown): PaymentPayload {
  return { ...payload, payload: { ...payload.payload, signature } };
}

describe("verifyPaymentLocally, EVM exact (EIP-3009)", () => {
  it("accepts the official client's payment and names the payer, amount and authorization id", async () => {
    const payload = await payWithOfficialClient(payer, requirements);
    const result = await verifyPaymentLocally(payload, requirements);
    const { nonce, validBefore } = (
      payload.payload as { authorization: { nonce: string; validBefore: string } }
    ).authorization;
    expect(result).toEqual({
      ok: true,
      payer: payer.address,
      network: "eip155:84532",
      amount: "10000",
      authorizationId: `eip155:84532:${payer.address}:${nonce.toLowerCase()}`,
      // What a reconciler of a lost settle needs to call an unused nonce "never settled".
      validBefore: Number(validBefore),
    });
  });

  it("refuses a payment for another amount than required", async () => {
    const payload = await payWithOfficialClient(payer, evmRequirements(payee, { amount: "9999" }));
    expect(reasonOf(await verifyPaymentLocally(payload, requirements))).toBe(
      "invalid_exact_evm_payload_authorization_value_mismatch",
    );
  });

  it("refuses an authorization whose value differs from the amount it claims to accept", async () => {
    const now = BigInt(Math.floor(Date.now() / 1000));
    const payload = await signAuthorization(payer, requirements, {
      from: payer.address,
      to: payee,
      value: 1n,
      validAfter: 0n,
      validBefore: now + 300n,
      nonce: randomNonce(),
    });
    expect(reasonOf(await verifyPaymentLocally(payload, requirements))).toBe(
      "invalid_exact_evm_payload_authorization_value_mismatch",
    );
  });

  it("refuses a payment to another payee", async () => {
    const payload = await payWithOfficialClient(payer, evmRequirements(stranger.address));
    expect(reasonOf(await verifyPaymentLocally(payload, requirements))).toBe(
      "invalid_exact_evm_recipient_mismatch",
    );
  });

  it("refuses a payment in another asset", async () => {
    const otherToken = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
    const payload = await signAuthorization(payer, evmRequirements(payee, { asset: otherToken }), {
      from: payer.address,
      to: payee,
      value: 10000n,
      validAfter: 0n,
      validBefore: BigInt(Math.floor(Date.now() / 1000) + 300),
      nonce: randomNonce(),
    });
    expect(reasonOf(await verifyPaymentLocally(payload, requirements))).toBe(
      "invalid_exact_evm_asset_mismatch",
    );
  });

  it("refuses a payment on another network", async () => {
    const baseMainnet = evmRequirements(payee, {
      network: "eip155:8453",
      asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
      extra: { name: "USD Coin", version: "2" },
    });
    const payload = await payWithOfficialClient(payer, baseMainnet);
    expect(reasonOf(await verifyPaymentLocally(payload, requirements))).toBe("invalid_network");
  });

  it("refuses a scheme other than exact", async () => {
    const payload = await payWithOfficialClient(payer, requirements);
    const upto = { ...payload, accepted: { ...payload.accepted, scheme: "upto" } };
    expect(reasonOf(await verifyPaymentLocally(upto, requirements))).toBe("unsupported_scheme");
  });

  it("refuses an expired authorization (validBefore past, or less than 6 s left)", async () => {
    const payload = await payWithOfficialClient(payer, requirements);
    const validBefore = Number(
      (payload.payload as { authorization: { validBefore: string } }).authorization.validBefore,
    );
    const fiveSecondsLeft = (validBefore - 5) * 1000;
    expect(reasonOf(await verifyPaymentLocally(payload, requirements, { now: fiveSecondsLeft }))).toBe(
      "invalid_exact_evm_payload_authorization_valid_before",
    );
    expect(
      reasonOf(await verifyPaymentLocally(payload, requirements, { now: (validBefore - 6) * 1000 })),
    ).toBe("accepted");
  });

  it("refuses an authorization that is not valid yet", async () => {
    const now = Math.floor(Date.now() / 1000);
    const payload = await signAuthorization(payer, requirements, {
      from: payer.address,
      to: payee,
      value: 10000n,
      validAfter: BigInt(now + 60),
      validBefore: BigInt(now + 600),
      nonce: randomNonce(),
    });
    expect(reasonOf(await verifyPaymentLocally(payload, requirements, { now: now * 1000 }))).toBe(
      "invalid_exact_evm_payload_authorization_valid_after",
    );
    expect(reasonOf(await verifyPaymentLocally(payload, requirements, { now: (now + 60) * 1000 }))).toBe(
      "accepted",
    );
  });

  it("refuses a replayed authorization the replay guard has seen, and asks it about exactly that id", async () => {
    const payload = await payWithOfficialClient(payer, requirements);
    const first = await verifyPaymentLocally(payload, requirements);
    if (!first.ok) throw new Error(first.message);
    const asked: string[] = [];
    const seen = {
      has: (id: string) => {
        asked.push(id);
        return id === first.authorizationId;
      },
    };
    expect(reasonOf(await verifyPaymentLocally(payload, requirements, { seen }))).toBe(
      "invalid_exact_evm_nonce_already_used",
    );
    expect(asked).toEqual([first.authorizationId]);
  });

  it("refuses a tampered signature", async () => {
    const payload = await payWithOfficialClient(payer, requirements);
    const signature = (payload.payload as { signature: string }).signature;
    const flipped = `${signature.slice(0, 10)}${signature[10] === "0" ? "1" : "0"}${signature.slice(11)}`;
    expect(reasonOf(await verifyPaymentLocally(withSignature(payload, flipped), requirements))).toBe(
      "invalid_exact_evm_signature",
    );
  });

  it("refuses a tampered authorization (the signature no longer covers it)", async () => {
    const payload = await payWithOfficialClient(payer, requirements);
    const later = withAuthorization(payload, { validBefore: "99999999999" });
    expect(reasonOf(await verifyPaymentLocally(later, requirements))).toBe("invalid_exact_evm_signature");
  });

  it("refuses a signature by another address than the payer it names", async () => {
    const now = BigInt(Math.floor(Date.now() / 1000));
    const payload = await signAuthorization(stranger, requirements, {
      from: payer.address,
      to: payee,
      value: 10000n,
      validAfter: 0n,
      validBefore: now + 300n,
      nonce: randomNonce(),
    });
    expect(reasonOf(await verifyPaymentLocally(payload, requirements))).toBe("invalid_exact_evm_signature");
  });

  it("refuses a malleated (high-s) copy of a valid signature, which recovers the same signer", async () => {
    const payload = await payWithOfficialClient(payer, requirements);
    const signature = (payload.payload as { signature: string }).signature;
    const order = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
    const highS = (order - BigInt(`0x${signature.slice(66, 130)}`)).toString(16).padStart(64, "0");
    const v = Number.parseInt(signature.slice(130), 16) === 27 ? "1c" : "1b";
    const malleated = `${signature.slice(0, 66)}${highS}${v}`;
    expect(await recoverTypedDataAddress({ ...typedData(payload), signature: malleated as Hex })).toBe(
      payer.address,
    );
    expect(reasonOf(await verifyPaymentLocally(withSignature(payload, malleated), requirements))).toBe(
      "invalid_exact_evm_signature",
    );
  });

  it("refuses truncated, over-long (smart wallet) and non-hex signatures", async () => {
    const payload = await payWithOfficialClient(payer, requirements);
    const signature = (payload.payload as { signature: string }).signature;
    for (const bad of [signature.slice(0, -2), `${signature}00`]) {
      expect(reasonOf(await verifyPaymentLocally(withSignature(payload, bad), requirements))).toBe(
        "invalid_exact_evm_signature",
      );
    }
    for (const bad of ["zz", 42, undefined]) {
      expect(reasonOf(await verifyPaymentLocally(withSignature(payload, bad), requirements))).toBe(
        "invalid_payload",
      );
    }
  });

  it("refuses a Permit2 payload from the official client", async () => {
    const permit2 = evmRequirements(payee, {
      extra: { name: "USDC", version: "2", assetTransferMethod: "permit2" },
    });
    const payload = await payWithOfficialClient(payer, permit2);
    expect(payload.payload).toHaveProperty("permit2Authorization");
    expect(reasonOf(await verifyPaymentLocally(payload, requirements))).toBe("unsupported_payload_type");
  });

  it("refuses requirements without the token's EIP-712 domain", async () => {
    const payload = await payWithOfficialClient(payer, requirements);
    const bare = evmRequirements(payee, { extra: {} });
    expect(reasonOf(await verifyPaymentLocally(payload, bare))).toBe(
      "invalid_exact_evm_missing_eip712_domain",
    );
  });

  it("refuses malformed payloads with invalid_payload or invalid_x402_version, never by throwing", async () => {
    const payload = await payWithOfficialClient(payer, requirements);
    const cases: Array<[unknown, string]> = [
      [null, "invalid_payload"],
      ["a string", "invalid_payload"],
      [{ ...payload, x402Version: 1 }, "invalid_x402_version"],
      [{ ...payload, accepted: undefined }, "invalid_payload"],
      [{ ...payload, accepted: { ...payload.accepted, amount: 10000 } }, "invalid_payload"],
      [{ ...payload, payload: [] }, "invalid_payload"],
      [withAuthorization(payload, { nonce: "0x1234" }), "invalid_payload"],
      [withAuthorization(payload, { value: "-1" }), "invalid_payload"],
      [withAuthorization(payload, { value: "1e4" }), "invalid_payload"],
      [withAuthorization(payload, { from: "0xnot-an-address" }), "invalid_payload"],
      [withAuthorization(payload, { validBefore: 1e12 }), "invalid_payload"],
    ];
    for (const [bad, reason] of cases) {
      expect(reasonOf(await verifyPaymentLocally(bad as PaymentPayload, requirements))).toBe(reason);
    }
  });

  it("compares addresses whatever their case", async () => {
    const payload = await payWithOfficialClient(payer, requirements);
    const lower = evmRequirements(payee.toLowerCase(), { asset: BASE_SEPOLIA_USDC.toLowerCase() });
    expect(reasonOf(await verifyPaymentLocally(payload, lower))).toBe("accepted");
  });
});
