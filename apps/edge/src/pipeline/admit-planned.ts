import type { Principal } from "@gw/auth";
import { admit, type Hold } from "../admission/admit.js";
import { type WorstCaseInput, worstCaseCost } from "../admission/worst-case.js";
import type { EdgeDeps } from "../deps.js";
import type { PlannedAttempt } from "../planner/plan.js";

/**
 * The one `Admit` of a planned request, whatever the surface: the first planned model names the
 * free-tier and catalogue request limits, the worst case over all attempts sizes the spend hold.
 */
export function admitPlanned(
  deps: EdgeDeps,
  input: {
    generationId: string;
    principal: Principal;
    requestedModel: string;
    attempts: readonly PlannedAttempt[];
    worstCase: WorstCaseInput;
  },
): Promise<Hold> {
  const first = input.attempts[0]?.model;
  return admit(deps.billing, {
    generationId: input.generationId,
    principal: input.principal,
    modelId: first?.id ?? input.requestedModel,
    isFreeModel: first?.isFree ?? false,
    modelLimit: first?.modelLimit,
    worstCasePico: worstCaseCost(input.attempts, input.worstCase),
  });
}
