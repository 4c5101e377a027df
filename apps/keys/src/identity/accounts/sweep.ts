import type { EventPublisher } from "@gw/events";
import type { Logger } from "@gw/logger";
import type { GetUsageResponse } from "@gw/proto/billing/v1/billing";
import type { Kysely } from "kysely";
import type { KeysTables } from "../../db/schema.js";
import { publishKeyChange } from "../keys/changes.js";
import { deleteUnusedWalletAccount, unusedWalletAccounts } from "../repositories/account-sweep.js";
import { lockWallet } from "../repositories/wallets.js";
import type { UsageSource } from "../usage/billing.js";
import { pruneCreationWindows } from "../wallets/creation-limits.js";

/** ACCOUNT_SWEEP_*: when an unused wallet account is removed, how often the job looks, how many a round. */
export interface SweepSettings {
  /** Idle time after which an unused wallet account is removed; 0 turns the sweep off. */
  afterSeconds: number;
  intervalSeconds: number;
  batchSize: number;
}

/**
 * A week: far longer than a wallet JWT lives (WALLET_JWT_TTL_S, 1 h by default), so nobody loses an
 * account between two sittings of real use, and short enough that a sign-up flood's accounts are gone
 * within days. Hourly rounds of at most 500 keep each round's billing calls few.
 */
export const DEFAULT_SWEEP: SweepSettings = {
  afterSeconds: 7 * 86_400,
  intervalSeconds: 3_600,
  batchSize: 500,
};

export interface SweepDeps {
  db: Kysely<KeysTables>;
  billing: UsageSource;
  publisher: EventPublisher;
  keyChangesTopic: string;
  logger: Logger;
}

/**
 * One round. A candidate (identity/repositories/account-sweep.ts: a wallet account idle for the whole
 * period with only its implicit key, no BYOK credential, no operator scope) is removed only when
 * billing confirms it has nothing: no credit or purchase in the ledger, no spend, no free request
 * today. The removal is one conditional statement under the wallet's lock, so a sign-in or payment
 * that touched the wallet since it was listed keeps it, and replicas sweeping at once remove it once.
 * The key's removal is published as a key change, so every edge drops it at once.
 */
export async function sweepUnusedAccounts(
  deps: SweepDeps,
  settings: SweepSettings,
  now: Date = new Date(),
): Promise<number> {
  const cutoff = new Date(now.getTime() - settings.afterSeconds * 1_000);
  const candidates = await unusedWalletAccounts(deps.db, cutoff, settings.batchSize);
  let swept = 0;
  for (const candidate of candidates) {
    if (
      !isUnused(await deps.billing.getUsage({ accountId: candidate.account_id, keyHash: candidate.key_hash }))
    )
      continue;
    const removed = await deps.db.transaction().execute(async (trx) => {
      await lockWallet(trx, candidate);
      return deleteUnusedWalletAccount(trx, candidate, cutoff);
    });
    if (!removed) continue;
    publishKeyChange(deps.publisher, deps.keyChangesTopic, {
      keyHash: candidate.key_hash,
      accountId: candidate.account_id,
      change: "deleted",
    });
    swept += 1;
  }
  // The creation windows that ended a day ago or more count nothing any longer.
  await pruneCreationWindows(deps.db, new Date(now.getTime() - 86_400_000));
  return swept;
}

/** Nothing in billing: a credit of any kind (purchase, grant), any spend, any free request today. */
function isUnused(usage: GetUsageResponse): boolean {
  return (
    usage.totalCreditsPico === 0n &&
    usage.totalPurchasedPico === 0n &&
    usage.totalUsagePico === 0n &&
    usage.keyUsagePico === 0n &&
    usage.keyByokUsagePico === 0n &&
    usage.freeRequestsToday === 0
  );
}

export interface SweepJob {
  stop(): Promise<void>;
}

/** A round every `intervalSeconds` (the first one after one interval); a failed round is logged and retried. */
export function startAccountSweep(deps: SweepDeps, settings: SweepSettings): SweepJob | undefined {
  if (settings.afterSeconds <= 0) return undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const run = (): void => {
    running = sweepUnusedAccounts(deps, settings).then(
      (swept) => {
        if (swept > 0)
          deps.logger.info({ swept, afterSeconds: settings.afterSeconds }, "unused wallet accounts swept");
      },
      (error: unknown) => deps.logger.warn({ err: error }, "unused account sweep failed; retried next round"),
    );
    void running.then(schedule);
  };
  const schedule = (): void => {
    if (stopped) return;
    timer = setTimeout(run, settings.intervalSeconds * 1_000);
    timer.unref();
  };
  schedule();
  return {
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
