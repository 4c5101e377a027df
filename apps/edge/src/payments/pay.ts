import { status as grpcStatus, type ServiceError } from "@grpc/grpc-js";
import { GatewayError } from "@gw/errors";
import { type EventPublisher, encodePaymentSettled, paymentSettled, type SettledPayment } from "@gw/events";
import type { Logger } from "@gw/logger";
import { dependencyError, isGrpcError, retryAfterOf } from "@gw/rpc";
import {
  FacilitatorError,
  type LocalCheckPassed,
  type LocalCheckResult,
  type SettleResponse,
  verifyPaymentLocally,
} from "@gw/x402";
import type { PaymentControlPlane } from "../clients/payments.js";
import type { PaymentToCheck } from "./normalize.js";
import type { RecentAuthorizations } from "./recent-authorizations.js";
import { facilitatorRefusal, localRefusal } from "./refusal.js";
import type { X402Settings } from "./settings.js";

export interface PaymentDeps {
  settings: X402Settings;
  controlPlane: PaymentControlPlane;
  publisher: EventPublisher;
  paymentsTopic: string;
  seen: RecentAuthorizations;
  logger: Logger;
  now: () => number;
}

/** A payment settled and credited: the answer header's content and the payer's wallet JWT. */
export interface PaidRequest {
  settlement: SettleResponse;
  jwt: string;
  accountId: string;
}

/** Why a payment was refused (402) with nothing credited; the caller adds the offer to the answer. */
export class PaymentRefused extends Error {
  override name = "PaymentRefused";
  constructor(
    readonly code: "payment_invalid" | "payment_settlement_failed",
    readonly reason: string,
    message: string,
    /** A failed settlement's own answer, sent back as PAYMENT-RESPONSE (success false). */
    readonly settlement?: SettleResponse,
  ) {
    super(message);
  }
}

/**
 * One x402 payment, in the order that never credits money not received and never settles money that
 * cannot be credited: the gateway's own check (offline), the facilitator's verify, the payer's account
 * (created as first sign-in creates it), then settlement, then the credit. Settlement comes before any
 * provider is called (a verified EIP-3009 authorization is not locked: settling after serving would let
 * the payer move the funds in between). The credit is the `gateway.payments.v1` event (the durable
 * record billing's consumer credits from) and billing's CreditPayment, awaited so that admission sees
 * the balance before the request is served; both credit one (network, payer, nonce) once.
 */
export async function settlePayment(
  deps: PaymentDeps,
  payment: PaymentToCheck,
  /** The payer's address as this edge determined it (TRUSTED_PROXIES): a new account's creation limit. */
  clientAddress = "unknown",
): Promise<PaidRequest> {
  const { payload, requirement } = payment;
  const local = await checkLocally(deps, payment);
  if (!local.ok) {
    const refusal = localRefusal(local.reason, local.message);
    throw new PaymentRefused("payment_invalid", refusal.reason, refusal.message);
  }
  const verdict = await facilitatorCall(deps, "verify", () =>
    deps.settings.facilitator.verify(payload, requirement),
  );
  if (!verdict.isValid) {
    logRefusal(deps, "verify", verdict.invalidReason, verdict.invalidMessage);
    const refusal = facilitatorRefusal(
      verdict.invalidReason,
      verdict.invalidMessage,
      requirement,
      "invalid_payment",
    );
    throw new PaymentRefused("payment_invalid", refusal.reason, refusal.message);
  }
  const account = await walletAccount(deps, `${local.network}:${local.payer}`, clientAddress);
  const attempt = (transaction: string): SettledPayment => ({
    network: local.network,
    payer: local.payer,
    nonce: nonceOf(local),
    accountId: account.tenantId,
    walletAccountId: account.walletAccountId,
    asset: requirement.asset,
    payTo: requirement.payTo,
    amountAtomic: requirement.amount,
    transaction,
    x402Version: payment.version,
    settledAt: new Date(deps.now()),
  });
  const settlement = await facilitatorCall(
    deps,
    "settle",
    () => deps.settings.facilitator.settle(payload, requirement),
    local,
  ).catch(async (error: unknown) => {
    await recordUnsettled(
      deps,
      attempt(""),
      unsettledUntil(deps, local, requirement.maxTimeoutSeconds),
      error,
    );
    throw error;
  });
  if (!settlement.success) {
    logRefusal(deps, "settle", settlement.errorReason, settlement.errorMessage);
    const refusal = facilitatorRefusal(
      settlement.errorReason,
      settlement.errorMessage,
      requirement,
      "settlement_failed",
    );
    // The PAYMENT-RESPONSE the client gets carries the same code and message, not the facilitator's text.
    throw new PaymentRefused(
      "payment_settlement_failed",
      refusal.reason,
      `the payment could not be settled: ${refusal.message}`,
      { ...settlement, errorReason: refusal.reason, errorMessage: refusal.message },
    );
  }
  deps.seen.record(local.authorizationId);
  const settled = attempt(settlement.transaction);
  const event = encodePaymentSettled(settled);
  deps.publisher.publish(deps.paymentsTopic, event.key, event.value, event.headers);
  const paid: PaidRequest = {
    settlement: {
      ...settlement,
      payer: local.payer,
      extensions: { ...settlement.extensions, jwt: account.jwt },
    },
    jwt: account.jwt,
    accountId: account.tenantId,
  };
  await credit(deps, settled, paid);
  return paid;
}

/**
 * The offline check. It checks every field's type itself; should a payload still make it throw, that
 * is the client's malformed input (a 402 naming it), never a 500.
 */
async function checkLocally(deps: PaymentDeps, payment: PaymentToCheck): Promise<LocalCheckResult> {
  try {
    return await verifyPaymentLocally(payment.payload, payment.requirement, {
      now: deps.now(),
      seen: deps.seen,
    });
  } catch (error) {
    deps.logger.warn({ err: error }, "the x402 local check threw on a payment payload");
    return { ok: false, reason: "invalid_payload", message: "the payment payload could not be read" };
  }
}

/** The facilitator's own words stay in the operator's log (a revert names the contract and call). */
function logRefusal(
  deps: PaymentDeps,
  operation: "verify" | "settle",
  reason: string | undefined,
  detail: string | undefined,
): void {
  deps.logger.info(
    { operation, facilitatorReason: reason, facilitatorDetail: detail },
    "x402 payment refused",
  );
}

/** The authorization's nonce: what follows `network:payer:` in the local check's authorization id. */
function nonceOf(local: LocalCheckPassed): string {
  const prefix = `${local.network}:${local.payer}:`;
  return local.authorizationId.startsWith(prefix)
    ? local.authorizationId.slice(prefix.length)
    : local.authorizationId;
}

/**
 * The payer's account. A new payer over the account-creation limits is refused by keys
 * (RESOURCE_EXHAUSTED): the client gets 429 with keys' Retry-After, and nothing is settled.
 */
async function walletAccount(deps: PaymentDeps, walletAccountId: string, clientAddress: string) {
  try {
    return await deps.controlPlane.ensureWalletAccount(walletAccountId, clientAddress);
  } catch (error) {
    if (isGrpcError(error) && error.code === grpcStatus.RESOURCE_EXHAUSTED) throw creationLimited(error);
    throw dependencyError("key service", error);
  }
}

/**
 * The credit, awaited. When billing does not answer the money is already settled and the event (sent
 * just before) will credit it: the client gets 503 with the PAYMENT-RESPONSE (success, and its JWT) so
 * it keeps access, and retries the request without paying again.
 */
async function credit(deps: PaymentDeps, settled: SettledPayment, paid: PaidRequest): Promise<void> {
  try {
    await deps.controlPlane.creditPayment(paymentSettled(settled));
  } catch (error) {
    deps.logger.warn(
      {
        err: error,
        accountId: settled.accountId,
        network: settled.network,
        transaction: settled.transaction,
      },
      "x402 payment settled; its credit waits for the payments event",
    );
    throw new PaymentCreditPending(paid, dependencyError("billing service", error));
  }
}

/** Settled but not yet credited (billing down): 503, with the settlement still told to the client. */
export class PaymentCreditPending extends Error {
  override name = "PaymentCreditPending";
  constructor(
    readonly paid: PaidRequest,
    readonly error: GatewayError,
  ) {
    super(error.message);
  }
}

/**
 * A settle without a verdict may have moved the money: billing keeps it (RecordUnsettledPayment) and
 * its reconciler asks the chain, then credits it once or reports it. Should billing not answer either,
 * the error log below is the only record (network, payer, authorization id; never the signature).
 */
async function recordUnsettled(
  deps: PaymentDeps,
  payment: SettledPayment,
  validBefore: number,
  error: unknown,
): Promise<void> {
  const reason =
    error instanceof GatewayError ? String(error.metadata?.payment_reason ?? error.code) : "unknown";
  try {
    await deps.controlPlane.recordUnsettledPayment({
      payment: paymentSettled(payment),
      validBefore: BigInt(validBefore),
      reason,
    });
  } catch (recordError) {
    deps.logger.error(
      { err: recordError, network: payment.network, payer: payment.payer, nonce: payment.nonce },
      "x402 settle without a verdict could not be recorded for reconciliation",
    );
  }
}

/** EVM: the authorization's validBefore; otherwise the offer's window from now (unix seconds). */
function unsettledUntil(deps: PaymentDeps, local: LocalCheckPassed, maxTimeoutSeconds: number): number {
  return local.validBefore ?? Math.ceil(deps.now() / 1000) + maxTimeoutSeconds;
}

/**
 * A facilitator call with no verdict (timeout, unreachable, nonsense) refuses the request: 503 when it
 * could not be reached in time, 502 when it answered badly; nothing is credited. A settle without a
 * verdict may still have moved the money, so it is logged for reconciliation (never the signature).
 */
async function facilitatorCall<T>(
  deps: PaymentDeps,
  operation: "verify" | "settle",
  call: () => Promise<T>,
  local?: LocalCheckPassed,
): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (operation === "settle")
      deps.logger.error(
        { err: error, network: local?.network, payer: local?.payer, authorizationId: local?.authorizationId },
        "x402 settle gave no verdict: the payment may have settled without being credited",
      );
    if (error instanceof FacilitatorError && error.httpStatus === 502)
      throw new GatewayError("upstream", `the payment facilitator failed (${operation})`, {
        code: "facilitator_error",
        metadata: { payment_reason: error.kind },
      });
    throw new GatewayError("service_unavailable", `the payment facilitator is unavailable (${operation})`, {
      code: "facilitator_unavailable",
      metadata: { payment_reason: error instanceof FacilitatorError ? error.kind : "unreachable" },
    });
  }
}

function creationLimited(error: ServiceError): GatewayError {
  return new GatewayError("rate_limit", error.details, {
    code: "account_creation_limited",
    metadata: { limit_source: "account_creation" },
    headers: { "Retry-After": String(retryAfterOf(error) ?? 1) },
  });
}
