import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import {
  evmRequirements,
  payWithOfficialClient,
  randomNonce,
  signAuthorization,
} from "../testing/evm-payments.js";
import type { PaymentPayload, PaymentRequirements } from "../types.js";
import { type LocalCheckResult, verifyPaymentLocally } from "./index.js";

// The EVM check's field-by-field refusals that evm.test.ts does not reach: the payment's own claims
// (`accepted`) disagreeing with its authorization, half an EIP-712 domain, chain ids, the shape of the
// authorization's fields. Each payment is signed by its payer: only the named field is wrong.
const payer = privateKeyToAccount(generatePrivateKey());
const payee = privateKeyToAccount(generatePrivateKey()).address;
const other = privateKeyToAccount(generatePrivateKey()).address;
const requirements = evmRequirements(payee);

const reasonOf = (result: LocalCheckResult): string => (result.ok ? "accepted" : result.reason);
const check = async (payload: unknown, required: PaymentRequirements = requirements) =>
  reasonOf(await verifyPaymentLocally(payload as PaymentPayload, required));
const withAccepted = (payload: PaymentPayload, changes: Record<string, unknown>) => ({
  ...payload,
  accepted: { ...payload.accepted, ...changes },
});
const withAuthorization = (payload: PaymentPayload, changes: Record<string, unknown>) => {
  const inner = payload.payload as { authorization: Record<string, unknown> };
  return { ...payload, payload: { ...inner, authorization: { ...inner.authorization, ...changes } } };
};

describe("verifyPaymentLocally, EVM: the payment's claims against its authorization", () => {
  it("refuses a payment whose accepted amount is not the required one, though the authorization is", async () => {
    const payload = await payWithOfficialClient(payer, requirements);
    expect(await check(withAccepted(payload, { amount: "9999" }))).toBe(
      "invalid_exact_evm_payload_authorization_value_mismatch",
    );
    expect(await check(withAccepted(payload, { amount: "10001" }))).toBe(
      "invalid_exact_evm_payload_authorization_value_mismatch",
    );
  });

  it("refuses a payment whose accepted payee is another, though the authorization pays ours", async () => {
    const payload = await payWithOfficialClient(payer, requirements);
    expect(await check(withAccepted(payload, { payTo: other }))).toBe("invalid_exact_evm_recipient_mismatch");
    expect(await check(withAccepted(payload, { payTo: "payee" }))).toBe(
      "invalid_exact_evm_recipient_mismatch",
    );
  });

  it("refuses an accepted asset that is not an address", async () => {
    const payload = await payWithOfficialClient(payer, requirements);
    expect(await check(withAccepted(payload, { asset: "USDC" }))).toBe("invalid_exact_evm_asset_mismatch");
  });

  it("refuses an EIP-3009 payment to requirements that ask for Permit2", async () => {
    const payload = await payWithOfficialClient(payer, requirements);
    const permit2 = evmRequirements(payee, {
      extra: { name: "USDC", version: "2", assetTransferMethod: "permit2" },
    });
    expect(await check(payload, permit2)).toBe("unsupported_payload_type");
  });

  it("refuses requirements missing the domain's name or its version, or any extra at all", async () => {
    const payload = await payWithOfficialClient(payer, requirements);
    expect(await check(payload, evmRequirements(payee, { extra: { version: "2" } }))).toBe(
      "invalid_exact_evm_missing_eip712_domain",
    );
    expect(await check(payload, evmRequirements(payee, { extra: { name: "USDC" } }))).toBe(
      "invalid_exact_evm_missing_eip712_domain",
    );
    expect(
      await check(payload, { ...requirements, extra: undefined } as unknown as PaymentRequirements),
    ).toBe("invalid_exact_evm_missing_eip712_domain");
  });

  it("refuses a network that is not eip155:<chain id>", async () => {
    const payload = await payWithOfficialClient(payer, requirements);
    for (const network of ["eip155:0", "eip155:84532x", "eip155:", "eip155:12345678901234567"]) {
      const required = evmRequirements(payee, { network: network as PaymentRequirements["network"] });
      expect([network, await check(withAccepted(payload, { network }), required)]).toEqual([
        network,
        "invalid_network",
      ]);
    }
  });

  it("refuses authorization fields of the wrong shape", async () => {
    const payload = await payWithOfficialClient(payer, requirements);
    const nonce = randomNonce();
    for (const changes of [
      { to: "0xnot-an-address" },
      { to: 7 },
      { from: 7 },
      { nonce: `${nonce}00` },
      { nonce: `x${nonce}` },
      { nonce: 1 },
      { validAfter: "-1" },
      { validBefore: undefined },
    ]) {
      expect([changes, await check(withAuthorization(payload, changes))]).toEqual([
        changes,
        "invalid_payload",
      ]);
    }
    expect(await check({ ...payload, payload: { ...payload.payload, authorization: "x" } })).toBe(
      "invalid_payload",
    );
    expect(await check({ ...payload, payload: { ...payload.payload, signature: 7 } })).toBe(
      "invalid_payload",
    );
    expect(await check({ ...payload, payload: { ...payload.payload, signature: "0xzz" } })).toBe(
      "invalid_payload",
    );
  });

  it("accepts an authorization valid from exactly now, and names its payer, amount and validBefore", async () => {
    const now = BigInt(Math.floor(Date.now() / 1000));
    const payload = await signAuthorization(payer, requirements, {
      from: payer.address,
      to: payee,
      value: 10000n,
      validAfter: now,
      validBefore: now + 300n,
      nonce: randomNonce(),
    });
    const result = await verifyPaymentLocally(payload, requirements, { now: Number(now) * 1000 });
    expect(result).toMatchObject({
      ok: true,
      payer: payer.address,
      amount: "10000",
      validBefore: Number(now + 300n),
    });
  });
});
