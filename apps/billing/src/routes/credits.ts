import { principalOf } from "@gw/auth";
import { picoToUsdNumber } from "@gw/money";
import type { RequestHandler } from "express";
import type { BillingContext } from "../deps.js";
import { accountTotals } from "../repositories/ledger-read.js";

/** GET /api/v1/credits (management key): the calling key's account only; balance = credits − usage. */
export function creditsRoute(context: BillingContext): RequestHandler {
  return async (request, response) => {
    const { accountId } = principalOf(request);
    const totals = await accountTotals(context.db, accountId);
    response.json({
      data: {
        total_credits: picoToUsdNumber(totals.creditsPico),
        total_usage: picoToUsdNumber(totals.usagePico),
      },
    });
  };
}
