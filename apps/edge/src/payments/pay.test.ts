import { randomBytes } from "node:crypto";
import { status as grpcStatus, Metadata, type ServiceError } from "@grpc/grpc-js";
import { GatewayError } from "@gw/errors";
import { InProcessEventBus } from "@gw/events";
import { memoryLogger } from "@gw/logger";
import type { RecordUnsettledPaymentRequest } from "@gw/proto/billing/v1/billing";
import type { PaymentSettled } from "@gw/proto/events/v1/payments";
import type { EnsureWalletAccountResponse } from "@gw/proto/keys/v1/keys";
import {
  type Facilitator,
  FacilitatorError,
  type PaymentPayload,
  type PaymentRequirements,
  type SettleResponse,
  type VerifyResponse,
} from "@gw/x402";
import { type Hex, toHex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import type { PaymentControlPlane } from "../clients/payments.js";
import { PaymentCreditPending, type PaymentDeps, PaymentRefused, settlePayment } from "./pay.js";
import { RecentAuthorizations } from "./recent-authorizations.js";
import type { X402Settings } from "./settings.js";

// settlePayment's order (local check, verify, account, settle, credit) with a real local check and
// replay memory, x402's verdicts from a facilitator double (the real one is a remote service), and the
// two control-plane calls recorded. The whole-gateway suites (e2e/x402) drive the same path over HTTP;
// these hold each step's outcome where a mutant of pay.ts would change it.

const NETWORK = "eip155:84532";
const USDC = "0x036CbD53842c5426634e7929541eC2318f3dCF7e";
const PAY_TO = "0x2096000000000000000000000000000000000001";
const NOW = Date.parse("2026-11-28T10:00:00Z");
/** Unlike the offer's 300 s window from now, so the reconciliation deadline shows which one was used. */
const VALID_BEFORE = NOW / 1000 + 120;
const TOPIC = "payments-test";

const REQUIREMENT: PaymentRequirements = {
  scheme: "exact",
  network: NETWORK,
  asset: USDC,
  amount: "1000000",
  payTo: PAY_TO,
  maxTimeoutSeconds: 300,
  extra: { name: "USDC", version: "2" },
};

/** EIP-3009's typed data, as USDC defines it. */
const AUTHORIZATION_TYPES = {
  TransferWithAuthorization: [
    { name: "from", type: "address" },
    { name: "to", type: "address" },
    { name: "value", type: "uint256" },
    { name: "validAfter", type: "uint256" },
    { name: "validBefore", type: "uint256" },
    { name: "nonce", type: "bytes32" },
  ],
} as const;

const payer = privateKeyToAccount(generatePrivateKey());

async function signedPayment(nonce: Hex = toHex(randomBytes(32))): Promise<PaymentPayload> {
  const authorization = {
    from: payer.address,
    to: PAY_TO as Hex,
    value: 1_000_000n,
    validAfter: BigInt(NOW / 1000 - 600),
    validBefore: BigInt(VALID_BEFORE),
    nonce,
  };
  const signature = await payer.signTypedData({
    domain: { name: "USDC", version: "2", chainId: 84532, verifyingContract: USDC },
    types: AUTHORIZATION_TYPES,
    primaryType: "TransferWithAuthorization",
    message: authorization,
  });
  return {
    x402Version: 2,
    accepted: REQUIREMENT,
    payload: {
      signature,
      authorization: {
        ...authorization,
        value: authorization.value.toString(),
        validAfter: authorization.validAfter.toString(),
        validBefore: authorization.validBefore.toString(),
      },
    },
  };
}

const SETTLED: SettleResponse = { success: true, transaction: "0xsettled", network: NETWORK };

interface Script {
  verify?: () => Promise<VerifyResponse>;
  settle?: () => Promise<SettleResponse>;
  ensure?: () => Promise<EnsureWalletAccountResponse>;
  credit?: () => Promise<void>;
  recordUnsettled?: () => Promise<void>;
}

const ACCOUNT: EnsureWalletAccountResponse = {
  tenantId: "acct_wallet",
  keyId: "key_wallet",
  jwt: "jwt.of.the.payer",
  created: true,
  walletAccountId: "wa_1",
} as EnsureWalletAccountResponse;

/** A payment's world: what each party was asked, in order, and what the bus carried. */
function world(script: Script = {}) {
  const calls: string[] = [];
  const credited: PaymentSettled[] = [];
  const unsettled: RecordUnsettledPaymentRequest[] = [];
  const ensured: [string, string][] = [];
  const facilitator: Facilitator = {
    verify: async () => {
      calls.push("verify");
      return (await script.verify?.()) ?? { isValid: true, payer: payer.address };
    },
    settle: async () => {
      calls.push("settle");
      return (await script.settle?.()) ?? SETTLED;
    },
    getSupported: async () => ({ kinds: [], extensions: [], signers: {} }),
  };
  const controlPlane: PaymentControlPlane = {
    ensureWalletAccount: async (walletAccountId, clientAddress) => {
      calls.push("ensure");
      ensured.push([walletAccountId, clientAddress]);
      return (await script.ensure?.()) ?? ACCOUNT;
    },
    creditPayment: async (payment) => {
      calls.push("credit");
      await script.credit?.();
      credited.push(payment);
      return {} as Awaited<ReturnType<PaymentControlPlane["creditPayment"]>>;
    },
    recordUnsettledPayment: async (request) => {
      calls.push("record-unsettled");
      await script.recordUnsettled?.();
      unsettled.push(request);
      return {} as Awaited<ReturnType<PaymentControlPlane["recordUnsettledPayment"]>>;
    },
  };
  const bus = new InProcessEventBus();
  const published: { topic: string; key: string }[] = [];
  const publisher = {
    ...bus,
    publish: (topic: string, key: string, value: Uint8Array, headers?: Record<string, string>) => {
      calls.push("publish");
      published.push({ topic, key });
      bus.publish(topic, key, value, headers);
    },
    flush: () => bus.flush(),
    backlog: () => bus.backlog(),
  } as unknown as PaymentDeps["publisher"];
  const log = memoryLogger();
  const seen = new RecentAuthorizations();
  const deps: PaymentDeps = {
    settings: { facilitator } as X402Settings,
    controlPlane,
    publisher,
    paymentsTopic: TOPIC,
    seen,
    logger: log.logger,
    now: () => NOW,
  };
  return { deps, calls, credited, unsettled, ensured, published, seen, log };
}

async function refusalOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail("expected a refusal"),
    (error: unknown) => error,
  );
}

const grpcError = (code: grpcStatus, details: string, retryAfter?: string): ServiceError => {
  const metadata = new Metadata();
  if (retryAfter) metadata.set("retry-after", retryAfter);
  return Object.assign(new Error(details), { code, details, metadata }) as ServiceError;
};

describe("settlePayment: a good payment", () => {
  it("checks, verifies, opens the account, settles, publishes and credits, in that order", async () => {
    const { deps, calls, ensured } = world();
    await settlePayment(
      deps,
      { version: 2, payload: await signedPayment(), requirement: REQUIREMENT },
      "203.0.113.9",
    );
    expect(calls).toEqual(["verify", "ensure", "settle", "publish", "credit"]);
    expect(ensured).toEqual([[`${NETWORK}:${payer.address}`, "203.0.113.9"]]);
  });

  it("credits exactly what was settled, to the payer's account, under the authorization's nonce", async () => {
    const { deps, credited, published } = world();
    const nonce = toHex(randomBytes(32));
    await settlePayment(deps, { version: 2, payload: await signedPayment(nonce), requirement: REQUIREMENT });
    expect(credited).toHaveLength(1);
    expect(credited[0]).toMatchObject({
      network: NETWORK,
      payer: payer.address,
      nonce,
      accountId: ACCOUNT.tenantId,
      walletAccountId: ACCOUNT.walletAccountId,
      asset: USDC,
      payTo: PAY_TO,
      amountAtomic: "1000000",
      amountPico: 1_000_000_000_000n,
      transaction: "0xsettled",
      x402Version: 2,
    });
    expect(credited[0]?.settledAt?.getTime()).toBe(NOW);
    expect(published).toHaveLength(1);
    expect(published[0]?.topic).toBe(TOPIC);
  });

  it("answers with the settlement, the payer and the payer's JWT", async () => {
    const { deps } = world();
    const paid = await settlePayment(deps, {
      version: 2,
      payload: await signedPayment(),
      requirement: REQUIREMENT,
    });
    expect(paid.jwt).toBe(ACCOUNT.jwt);
    expect(paid.accountId).toBe(ACCOUNT.tenantId);
    expect(paid.settlement).toMatchObject({
      success: true,
      transaction: "0xsettled",
      payer: payer.address,
      extensions: { jwt: ACCOUNT.jwt },
    });
  });

  it("remembers the authorization, so the same payment again is refused before any facilitator call", async () => {
    const { deps, calls } = world();
    const payment = { version: 2 as const, payload: await signedPayment(), requirement: REQUIREMENT };
    await settlePayment(deps, payment);
    calls.length = 0;
    const refusal = await refusalOf(settlePayment(deps, payment));
    expect(refusal).toBeInstanceOf(PaymentRefused);
    expect((refusal as PaymentRefused).code).toBe("payment_invalid");
    expect(calls).toEqual([]);
  });
});

describe("settlePayment: refusals before any money moves", () => {
  it("refuses a payment the local check rejects (another payee), asking nobody", async () => {
    const { deps, calls } = world();
    const refusal = await refusalOf(
      settlePayment(deps, {
        version: 2,
        payload: await signedPayment(),
        requirement: { ...REQUIREMENT, payTo: "0x2096000000000000000000000000000000000002" },
      }),
    );
    expect(refusal).toBeInstanceOf(PaymentRefused);
    expect((refusal as PaymentRefused).code).toBe("payment_invalid");
    expect((refusal as PaymentRefused).reason).toMatch(/recipient/);
    expect(calls).toEqual([]);
  });

  it("turns a payload that makes the local check throw into the client's invalid payload", async () => {
    const { deps, calls, log } = world();
    const payload = { x402Version: 2, accepted: REQUIREMENT, payload: null } as unknown as PaymentPayload;
    const refusal = await refusalOf(settlePayment(deps, { version: 2, payload, requirement: REQUIREMENT }));
    expect(refusal).toBeInstanceOf(PaymentRefused);
    expect((refusal as PaymentRefused).message).toBeTruthy();
    expect(calls).toEqual([]);
    expect(log.lines().join("\n")).not.toContain("settle");
  });

  it("refuses what the facilitator's verify rejects, with x402's reason, and settles nothing", async () => {
    const { deps, calls, log } = world({
      verify: async () => ({
        isValid: false,
        invalidReason: "insufficient_funds",
        invalidMessage: "balance 0",
      }),
    });
    const refusal = await refusalOf(
      settlePayment(deps, { version: 2, payload: await signedPayment(), requirement: REQUIREMENT }),
    );
    expect(refusal).toBeInstanceOf(PaymentRefused);
    expect(refusal).toMatchObject({ code: "payment_invalid", reason: "insufficient_funds" });
    expect(calls).toEqual(["verify"]);
    const logged = log.lines().map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged).toContainEqual(
      expect.objectContaining({ operation: "verify", facilitatorReason: "insufficient_funds" }),
    );
  });

  it("answers 503 when verify gets no verdict, and records nothing as unsettled", async () => {
    const { deps, calls, unsettled } = world({
      verify: () => Promise.reject(new FacilitatorError("timeout", "verify", "no answer")),
    });
    const refusal = await refusalOf(
      settlePayment(deps, { version: 2, payload: await signedPayment(), requirement: REQUIREMENT }),
    );
    expect(refusal).toBeInstanceOf(GatewayError);
    expect(refusal).toMatchObject({
      code: "facilitator_unavailable",
      metadata: { payment_reason: "timeout" },
    });
    expect((refusal as GatewayError).message).toContain("(verify)");
    expect(calls).toEqual(["verify"]);
    expect(unsettled).toEqual([]);
  });

  it("answers 429 with keys' Retry-After when a new payer is over the account-creation limit", async () => {
    const { deps, calls } = world({
      ensure: () => Promise.reject(grpcError(grpcStatus.RESOURCE_EXHAUSTED, "too many new accounts", "42")),
    });
    const refusal = await refusalOf(
      settlePayment(deps, { version: 2, payload: await signedPayment(), requirement: REQUIREMENT }),
    );
    expect(refusal).toBeInstanceOf(GatewayError);
    const error = refusal as GatewayError;
    expect(error.status).toBe(429);
    expect(error).toMatchObject({
      code: "account_creation_limited",
      metadata: { limit_source: "account_creation" },
    });
    expect(error.message).toBe("too many new accounts");
    expect(error.headers?.["Retry-After"]).toBe("42");
    expect(calls).toEqual(["verify", "ensure"]);
  });

  it("answers 503 naming the key service when keys is down, and settles nothing", async () => {
    const { deps, calls } = world({
      ensure: () => Promise.reject(grpcError(grpcStatus.UNAVAILABLE, "connect ECONNREFUSED")),
    });
    const refusal = await refusalOf(
      settlePayment(deps, { version: 2, payload: await signedPayment(), requirement: REQUIREMENT }),
    );
    expect(refusal).toBeInstanceOf(GatewayError);
    expect((refusal as GatewayError).status).toBe(503);
    expect((refusal as GatewayError).message).toContain("key service");
    expect(calls).toEqual(["verify", "ensure"]);
  });
});

describe("settlePayment: settlement", () => {
  it("refuses a failed settlement with x402's reason in its PAYMENT-RESPONSE, remembering and crediting nothing", async () => {
    const { deps, calls, seen } = world({
      settle: async () => ({
        success: false,
        errorReason: "invalid_transaction_state",
        errorMessage: "reverted: nonce used",
        transaction: "",
        network: NETWORK,
      }),
    });
    const payload = await signedPayment();
    const refusal = await refusalOf(settlePayment(deps, { version: 2, payload, requirement: REQUIREMENT }));
    expect(refusal).toBeInstanceOf(PaymentRefused);
    const refused = refusal as PaymentRefused;
    expect(refused.code).toBe("payment_settlement_failed");
    expect(refused.message).toMatch(/^the payment could not be settled: /);
    expect(refused.settlement).toMatchObject({ success: false, errorReason: refused.reason });
    expect(refused.settlement?.errorMessage).not.toContain("reverted: nonce used");
    expect(calls).toEqual(["verify", "ensure", "settle"]);
    const authorizationId = `${NETWORK}:${payer.address}:${(payload.payload as { authorization: { nonce: string } }).authorization.nonce}`;
    expect(seen.has(authorizationId)).toBe(false);
  });

  it("records a settle without a verdict for reconciliation until the authorization's validBefore", async () => {
    const { deps, unsettled, calls, log } = world({
      settle: () => Promise.reject(new FacilitatorError("timeout", "settle", "no answer")),
    });
    const nonce = toHex(randomBytes(32));
    const refusal = await refusalOf(
      settlePayment(deps, { version: 2, payload: await signedPayment(nonce), requirement: REQUIREMENT }),
    );
    expect(refusal).toMatchObject({ code: "facilitator_unavailable" });
    expect((refusal as GatewayError).status).toBe(503);
    expect(calls).toEqual(["verify", "ensure", "settle", "record-unsettled"]);
    expect(unsettled).toHaveLength(1);
    expect(unsettled[0]?.validBefore).toBe(BigInt(VALID_BEFORE));
    expect(unsettled[0]?.reason).toBe("timeout");
    expect(unsettled[0]?.payment).toMatchObject({
      nonce,
      payer: payer.address,
      accountId: ACCOUNT.tenantId,
      transaction: "",
    });
    const logged = log.lines().join("\n");
    expect(logged).toContain("x402 settle gave no verdict");
    expect(logged).not.toContain((await signedPayment(nonce)).payload.signature as string);
  });

  it("answers 502 when the facilitator's settle answers nonsense, still recording it for reconciliation", async () => {
    const { deps, unsettled } = world({
      settle: () => Promise.reject(new FacilitatorError("malformed_response", "settle", "not json")),
    });
    const refusal = await refusalOf(
      settlePayment(deps, { version: 2, payload: await signedPayment(), requirement: REQUIREMENT }),
    );
    expect(refusal).toMatchObject({
      code: "facilitator_error",
      metadata: { payment_reason: "malformed_response" },
    });
    expect((refusal as GatewayError).status).toBe(502);
    expect((refusal as GatewayError).message).toContain("(settle)");
    expect(unsettled[0]?.reason).toBe("malformed_response");
  });

  it("names a settle that failed with no facilitator error 'unreachable', and logs when billing cannot record it", async () => {
    const { deps, unsettled, log } = world({
      settle: () => Promise.reject(new Error("socket hang up")),
      recordUnsettled: () => Promise.reject(new Error("billing down")),
    });
    const refusal = await refusalOf(
      settlePayment(deps, { version: 2, payload: await signedPayment(), requirement: REQUIREMENT }),
    );
    expect(refusal).toMatchObject({
      code: "facilitator_unavailable",
      metadata: { payment_reason: "unreachable" },
    });
    expect(unsettled).toEqual([]);
    expect(log.lines().join("\n")).toContain("could not be recorded for reconciliation");
  });

  it("when billing does not answer the credit, says the payment is settled and the credit pending (503)", async () => {
    const { deps, calls, seen, published } = world({
      credit: () => Promise.reject(grpcError(grpcStatus.UNAVAILABLE, "billing down")),
    });
    const payload = await signedPayment();
    const refusal = await refusalOf(settlePayment(deps, { version: 2, payload, requirement: REQUIREMENT }));
    expect(refusal).toBeInstanceOf(PaymentCreditPending);
    const pending = refusal as PaymentCreditPending;
    expect(pending.paid.jwt).toBe(ACCOUNT.jwt);
    expect(pending.paid.settlement.success).toBe(true);
    expect(pending.error.status).toBe(503);
    expect(pending.error.message).toContain("billing service");
    expect(calls).toEqual(["verify", "ensure", "settle", "publish", "credit"]);
    expect(published).toHaveLength(1);
    const nonce = (payload.payload as { authorization: { nonce: string } }).authorization.nonce;
    expect(seen.has(`${NETWORK}:${payer.address}:${nonce}`)).toBe(true);
  });
});
