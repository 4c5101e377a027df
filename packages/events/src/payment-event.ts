import { type EncodedEvent, encodeEvent, PAYMENT_SETTLED_V1, type PaymentSettled } from "./envelope.js";

/** USDC has 6 decimals: one atomic unit is 10⁻⁶ USD = 10⁶ pico-dollars. */
export const PICO_PER_USDC_ATOMIC = 1_000_000n;

/** A settled x402 payment as the edge knows it right after the facilitator settled it. */
export interface SettledPayment {
  /** CAIP-2 network, e.g. `eip155:84532`. */
  network: string;
  payer: string;
  /** The authorization nonce (EIP-3009 bytes32 hex; on Solana the transaction signature). */
  nonce: string;
  /** The payer's gateway account (tenant) id. */
  accountId: string;
  /** CAIP-10 id of the payer's wallet. */
  walletAccountId: string;
  asset: string;
  payTo: string;
  /** Atomic token units as a decimal string (USDC: 6 decimals). */
  amountAtomic: string;
  transaction: string;
  x402Version: number;
  settledAt: Date;
}

/**
 * What makes a payment unique: (network, payer, authorization nonce). It is the envelope's event id
 * and the ledger's idempotency reference, so a payment is credited once whoever delivers it how often.
 * The payer is lower-cased on EVM networks, where addresses are case-insensitive.
 */
export function paymentReference(network: string, payer: string, nonce: string): string {
  const canonicalPayer = network.startsWith("eip155:") ? payer.toLowerCase() : payer;
  const canonicalNonce = network.startsWith("eip155:") ? nonce.toLowerCase() : nonce;
  return `x402:${network}:${canonicalPayer}:${canonicalNonce}`;
}

/** Atomic USDC units → pico-dollars; refuses anything that is not a non-negative integer string. */
export function usdcAtomicToPico(amountAtomic: string): bigint {
  if (!/^\d{1,30}$/.test(amountAtomic)) throw new RangeError(`not an atomic amount: ${amountAtomic}`);
  return BigInt(amountAtomic) * PICO_PER_USDC_ATOMIC;
}

/** The `payment.settled` v1 payload. */
export function paymentSettled(payment: SettledPayment): PaymentSettled {
  return {
    network: payment.network,
    payer: payment.payer,
    nonce: payment.nonce,
    accountId: payment.accountId,
    walletAccountId: payment.walletAccountId,
    asset: payment.asset,
    payTo: payment.payTo,
    amountAtomic: payment.amountAtomic,
    amountPico: usdcAtomicToPico(payment.amountAtomic),
    transaction: payment.transaction,
    x402Version: payment.x402Version,
    settledAt: payment.settledAt,
    paymentReference: paymentReference(payment.network, payment.payer, payment.nonce),
  };
}

/** Envelope with event id = the payment reference and key = the account id (per-account ordering). */
export function encodePaymentSettled(payment: SettledPayment): EncodedEvent {
  const payload = paymentSettled(payment);
  return encodeEvent(PAYMENT_SETTLED_V1, payload, {
    accountId: payment.accountId,
    eventId: payload.paymentReference,
    occurredAt: payment.settledAt,
  });
}
