import type { Pico } from "./pico.js";

/** How the account is charged: BYOK requests pay only the gateway's fee (`BYOK_FEE_PERCENT`). */
export interface ChargePolicy {
  /** Percent of the provider's price charged to credits for a BYOK request; default 0. */
  byokFeePercent: number;
}

export const DEFAULT_CHARGE_POLICY: ChargePolicy = { byokFeePercent: 0 };

/** Fee percent is kept to 1/1000 of a percent so the charge is exact integer arithmetic. */
const FEE_SCALE = 100_000n;

/**
 * What a request costs the account's credits (api-decisions, "BYOK billing"): the catalogue price,
 * or for a request served on the account's own provider key only `byokFeePercent` of it (rounded
 * down to the pico-dollar). The provider's price itself is reported as the upstream cost.
 *
 * This is the one BYOK charge rule: the edge charges each generation with it once, its admission
 * holds a BYOK request's worst case with it, and the usage event's encoder uses it when a producer
 * hands it the policy rather than the figure.
 */
export function chargedPico(cost: { totalPico: Pico }, isByok: boolean, policy: ChargePolicy): Pico {
  if (!isByok) return cost.totalPico;
  const milliPercent = BigInt(Math.round(policy.byokFeePercent * 1000));
  if (milliPercent <= 0n) return 0n;
  return (cost.totalPico * milliPercent) / FEE_SCALE;
}

/** Checks a BYOK_FEE_PERCENT value: a finite percent in [0, 100]. */
export function isValidByokFeePercent(value: number): boolean {
  return Number.isFinite(value) && value >= 0 && value <= 100;
}
