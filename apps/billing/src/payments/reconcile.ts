import type { Logger } from "@gw/logger";
import { recordUnsettledPayment } from "@gw/metrics";
import type { EvmAuthorization, EvmAuthorizationOutcome } from "@gw/x402";
import { sql } from "kysely";
import type { UnsettledState } from "../db/schema.js";
import { creditPayment, type PaymentCreditDeps } from "./credit-payment.js";
import { paymentOf, type UnsettledRow } from "./unsettled.js";

/** Reads one EIP-3009 authorization on a network's chain (@gw/x402 readEvmAuthorization over RPC). */
export type AuthorizationReader = (
  rpcUrl: string,
  authorization: EvmAuthorization,
) => Promise<EvmAuthorizationOutcome>;

export interface ReconcileSettings {
  /** JSON-RPC URL per CAIP-2 network (X402_RPC_URLS); a network without one is reported, not guessed. */
  rpcUrls: Record<string, string>;
  read: AuthorizationReader;
  /** Rows per round. */
  batchSize?: number;
}

export interface ReconcileDeps extends PaymentCreditDeps {
  clock: () => number;
}

type Verdict =
  | { state: "credited"; transaction: string }
  | { state: "not_settled" | "unresolved"; detail: string }
  | { state: "pending"; detail: string };

/**
 * One round over the pending unsettled payments. Each row is locked (FOR UPDATE SKIP LOCKED) while its
 * chain is asked, so several billing replicas share the work without asking twice; the credit itself
 * is creditPayment, unique on the payment's reference, so the payment is credited once whether the
 * reconciler, a retried payment that settled, or both get there. A nonce still unused is left pending
 * until its authorization's validBefore: before that a slow settlement could still land.
 */
export async function reconcileUnsettled(deps: ReconcileDeps, settings: ReconcileSettings): Promise<number> {
  return deps.db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom("unsettled_payments")
      .selectAll()
      .where("state", "=", "pending")
      .orderBy(sql`checked_at nulls first`)
      .limit(settings.batchSize ?? 20)
      .forUpdate()
      .skipLocked()
      .execute();
    for (const row of rows) {
      const verdict = await judge(deps, settings, row);
      await trx
        .updateTable("unsettled_payments")
        .set({
          state: verdict.state,
          detail: "detail" in verdict ? verdict.detail : null,
          transaction: "transaction" in verdict ? verdict.transaction : null,
          attempts: sql`attempts + 1`,
          checked_at: new Date(deps.clock()),
          resolved_at: verdict.state === "pending" ? null : new Date(deps.clock()),
        })
        .where("reference", "=", row.reference)
        .execute();
      report(deps.logger, row, verdict);
    }
    return rows.length;
  });
}

async function judge(deps: ReconcileDeps, settings: ReconcileSettings, row: UnsettledRow): Promise<Verdict> {
  const expired = deps.clock() > row.valid_before.getTime();
  const rpcUrl = settings.rpcUrls[row.network];
  if (!row.network.startsWith("eip155:") || !rpcUrl) {
    const detail = `no chain reader for ${row.network} (X402_RPC_URLS): check the payer's transfer by hand`;
    return expired ? { state: "unresolved", detail } : { state: "pending", detail };
  }
  let outcome: EvmAuthorizationOutcome;
  try {
    outcome = await settings.read(rpcUrl, { asset: row.asset, payer: row.payer, nonce: row.nonce });
  } catch (error) {
    return {
      state: "pending",
      detail: `chain read failed: ${error instanceof Error ? error.message : error}`,
    };
  }
  if (outcome.state === "used") {
    await creditPayment(deps, paymentOf(row, outcome.transaction));
    return { state: "credited", transaction: outcome.transaction };
  }
  if (outcome.state === "consumed_without_transfer")
    return { state: "unresolved", detail: "the nonce is consumed but no transfer was found (cancelled?)" };
  return expired
    ? { state: "not_settled", detail: "the authorization expired unused: no money moved" }
    : { state: "pending", detail: "the nonce is unused; it may still settle until valid_before" };
}

function report(logger: Logger, row: UnsettledRow, verdict: Verdict): void {
  if (verdict.state === "pending") return;
  recordUnsettledPayment(verdict.state as Exclude<UnsettledState, "pending">);
  const fields = { reference: row.reference, accountId: row.account_id, state: verdict.state };
  if (verdict.state === "credited")
    logger.info(
      { ...fields, transaction: verdict.transaction },
      "x402 unsettled payment: settled on chain, credited",
    );
  else if (verdict.state === "not_settled")
    logger.warn(
      { ...fields, detail: verdict.detail },
      "x402 unsettled payment: never settled, nothing credited",
    );
  else logger.error({ ...fields, detail: verdict.detail }, "x402 unsettled payment needs an operator");
}

/** The reconciler's loop: a round every `intervalMs`; stop() waits for the round under way. */
export function startReconciler(
  deps: ReconcileDeps,
  settings: ReconcileSettings & { intervalMs: number },
): { stop(): Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let round: Promise<void> = Promise.resolve();
  const tick = () => {
    round = reconcileUnsettled(deps, settings)
      .then(() => undefined)
      .catch((error: unknown) => deps.logger.error({ err: error }, "x402 reconciler round failed"))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, settings.intervalMs);
      });
  };
  timer = setTimeout(tick, settings.intervalMs);
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await round;
    },
  };
}
