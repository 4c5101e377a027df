import type { Principal } from "@gw/auth";
import { isGatewayError } from "@gw/errors";
import type { ChargePolicy } from "@gw/money";
import type { BillingClient } from "../clients/billing.js";
import type { PlannedAttempt } from "../planning/plan.js";
import { admit, type Hold } from "./admit.js";
import { withAffordableTokens } from "./affordable.js";
import type { LeaseBook } from "./lease-book.js";
import { type WorstCaseInput, worstCaseCost } from "./worst-case.js";

/**
 * The admission of a planned request, whatever the surface: the first planned model names the
 * free-tier and catalogue request limits, the worst case over all attempts sizes the spend hold.
 * A request that counts against no request-count window and is not served on the account's own
 * provider key is admitted under the edge's budget lease when it has one (no remote call); the rest,
 * and any request the lease cannot cover, get one `Admit` call of their own.
 */
export async function admitPlanned(
  billing: BillingClient,
  input: {
    generationId: string;
    principal: Principal;
    requestedModel: string;
    attempts: readonly PlannedAttempt[];
    worstCase: WorstCaseInput;
    leases?: LeaseBook | undefined;
    /** How a BYOK attempt is charged; without it every attempt is held at its full price. */
    charge?: ChargePolicy | undefined;
  },
): Promise<Hold> {
  const first = input.attempts[0]?.model;
  const worstCasePico = worstCaseCost(
    input.attempts,
    input.worstCase,
    input.charge && { policy: input.charge, includeByok: input.principal.includeByokInLimit },
  );
  if (input.leases && leasable(input.attempts)) {
    const leased = await input.leases.reserve(input.principal, worstCasePico);
    if (leased) return leased;
  }
  try {
    return await admit(billing, {
      generationId: input.generationId,
      principal: input.principal,
      modelId: first?.id ?? input.requestedModel,
      isFreeModel: first?.isFree ?? false,
      modelLimit: first?.modelLimit,
      worstCasePico,
    });
  } catch (error) {
    if (!isGatewayError(error) || error.status !== 402) throw error;
    throw await withAffordableTokens(billing, error, input);
  }
}

/**
 * Rate windows (free models, a model's own request limit) are counted per request in billing, and a
 * BYOK attempt's spend counts differently against key limits, so those requests are never leased.
 */
function leasable(attempts: readonly PlannedAttempt[]): boolean {
  const first = attempts[0]?.model;
  if (!first || first.isFree || (first.modelLimit?.requests ?? 0) > 0) return false;
  return attempts.every((attempt) => !attempt.byok);
}
