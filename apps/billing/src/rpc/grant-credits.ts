import { GatewayError } from "@gw/errors";
import type { GrantCreditsRequest, GrantCreditsResponse } from "@gw/proto/billing/v1/billing";
import type { CreditKind } from "../db/schema.js";
import type { BillingContext } from "../deps.js";
import { addCredits, CreditsInputError } from "../operator/credits.js";
import { accountTotals } from "../repositories/ledger-read.js";
import { requireField } from "./store-errors.js";

const KINDS: readonly CreditKind[] = ["purchase", "grant"];

/**
 * GrantCredits: an operator's credit, asked by the keys app (which checked the operator token and that
 * the account exists). The same domain operation as `gw credits add`: one ledger entry, NOTIFY'd in its
 * transaction so every billing process applies it to its hot view; a repeated reference writes nothing.
 */
export function grantCredits(context: BillingContext) {
  return async (request: GrantCreditsRequest): Promise<GrantCreditsResponse> => {
    const accountId = requireField("account_id", request.accountId);
    const reference = requireField("reference", request.reference);
    const kind = KINDS.find((known) => known === request.kind);
    if (kind === undefined) throw new GatewayError("invalid_request", "kind: expected purchase or grant");
    let added: Awaited<ReturnType<typeof addCredits>>;
    try {
      added = await addCredits(context, { accountId, amountPico: request.amountPico, kind, reference });
    } catch (error) {
      if (error instanceof CreditsInputError) throw new GatewayError("invalid_request", error.message);
      throw error;
    }
    const totals = await accountTotals(context.db, accountId);
    context.logger.info(
      {
        accountId,
        kind,
        amountPico: String(request.amountPico),
        entryId: String(added.entryId),
        created: added.created,
      },
      "operator credit",
    );
    return {
      created: added.created,
      entryId: String(added.entryId),
      totalCreditsPico: totals.creditsPico,
      totalUsagePico: totals.usagePico,
      isFreeTier: totals.isFreeTier,
    };
  };
}
