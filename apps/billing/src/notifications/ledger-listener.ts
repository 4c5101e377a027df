import type { AdmissionStore } from "@gw/admission-store";
import type { Logger } from "@gw/logger";
import type pg from "pg";
import { LEDGER_CHANNEL, parseLedgerNotice } from "./channel.js";

export interface LedgerListener {
  stop(): Promise<void>;
}

export interface ListenerOptions {
  pool: pg.Pool;
  store: AdmissionStore;
  logger: Logger;
  /** Pause before re-listening after the connection dropped. */
  retryMs?: number;
}

/**
 * LISTENs for credit entries committed by any process and applies them to the hot view, so credits
 * added by the operator CLI count on the next Admit. Applying (not invalidating) keeps the holds of
 * requests in flight. A notice lost while the connection was down is healed by the view's periodic
 * rebase from Postgres (AdmissionStoreOptions.maxViewAgeMs).
 */
export async function startLedgerListener(options: ListenerOptions): Promise<LedgerListener> {
  const { pool, store, logger } = options;
  let stopped = false;
  let client: pg.PoolClient | undefined;
  let detachError: (() => void) | undefined;
  let retry: NodeJS.Timeout | undefined;

  const onNotification = (message: pg.Notification): void => {
    const notice = parseLedgerNotice(message.payload);
    if (!notice) {
      logger.warn({ payload: message.payload }, "ignoring malformed ledger notice");
      return;
    }
    store.applyLedgerEntry(notice.accountId, notice.entry).catch((error: unknown) => {
      logger.warn({ err: error, accountId: notice.accountId }, "could not apply a credit to the hot view");
    });
  };

  const connect = async (): Promise<void> => {
    const next = await pool.connect();
    const onError = (error: Error): void => {
      // A client already handed back by stop() belongs to the pool now: releasing it again throws.
      if (client !== next) return;
      logger.warn({ err: error }, "ledger listener connection lost; reconnecting");
      next.removeListener("notification", onNotification);
      next.release(error);
      client = undefined;
      scheduleReconnect();
    };
    next.on("notification", onNotification);
    try {
      await next.query(`listen ${LEDGER_CHANNEL}`);
    } catch (error) {
      next.removeListener("notification", onNotification);
      next.release(error instanceof Error ? error : new Error(String(error)));
      throw error;
    }
    next.once("error", onError);
    detachError = () => next.removeListener("error", onError);
    client = next;
  };

  const scheduleReconnect = (): void => {
    if (stopped) return;
    retry = setTimeout(() => {
      connect().catch((error: unknown) => {
        logger.warn({ err: error }, "ledger listener could not reconnect");
        scheduleReconnect();
      });
    }, options.retryMs ?? 1_000);
  };

  await connect();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(retry);
      const current = client;
      client = undefined;
      if (!current) return;
      current.removeListener("notification", onNotification);
      await current.query(`unlisten ${LEDGER_CHANNEL}`).catch(() => {});
      // The pool's own idle-error handling takes over from here (e.g. when the database goes away).
      detachError?.();
      current.release();
    },
  };
}
