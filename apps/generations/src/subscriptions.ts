import { setTimeout as sleep } from "node:timers/promises";
import type { CheckResult } from "@gw/http";
import type { Logger } from "@gw/logger";
import type { Stoppable } from "@gw/service";

/** Subscribes every consumer of one attempt, pushing each into `held` as soon as it runs. */
export type Subscribe = (held: Stoppable[]) => Promise<void>;

export interface RetriedSubscriptions extends Stoppable {
  /** Readiness: not ready until every consumer runs, with the last failure's message. */
  check(): CheckResult;
}

export interface RetryOptions {
  logger: Logger;
  firstDelayMs?: number;
  maxDelayMs?: number;
}

/**
 * The app's consumers, retried until the broker takes them. A young broker (its topics or the group
 * coordinator not there yet) made the first subscribe throw and the app exit at start (issue 33);
 * now a failed attempt stops what it had subscribed, waits (1 s doubling to 10 s) and tries again,
 * while the servers run and /readyz answers 503 naming the failure. The first attempt is awaited, so
 * with a broker that answers, the app starts exactly as before: consuming once its start resolves.
 */
export async function subscribeWithRetry(
  subscribe: Subscribe,
  options: RetryOptions,
): Promise<RetriedSubscriptions> {
  const stopping = new AbortController();
  let held: Stoppable[] = [];
  let state: CheckResult = { ok: false, error: "subscribing to the event topics" };
  const attempt = async (): Promise<boolean> => {
    const acquired: Stoppable[] = [];
    try {
      await subscribe(acquired);
      held = acquired;
      state = { ok: true };
      return true;
    } catch (error) {
      await stopEach(acquired);
      state = { ok: false, error: `event topics not subscribed yet: ${messageOf(error)}` };
      return false;
    }
  };
  const retrying = (await attempt()) ? Promise.resolve() : retry(attempt, stopping.signal, options);
  return {
    check: () => state,
    stop: async () => {
      stopping.abort();
      await retrying;
      await stopEach(held);
    },
  };
}

async function retry(
  attempt: () => Promise<boolean>,
  signal: AbortSignal,
  options: RetryOptions,
): Promise<void> {
  const first = options.firstDelayMs ?? 1_000;
  const max = options.maxDelayMs ?? 10_000;
  for (let failures = 1; !signal.aborted; failures++) {
    const delayMs = Math.min(first * 2 ** (failures - 1), max);
    options.logger.warn(
      { failures, retryInMs: delayMs },
      "event topics not subscribed (broker or topics not ready): retrying",
    );
    try {
      await sleep(delayMs, undefined, { signal });
    } catch {
      return; // stopping
    }
    if (await attempt()) {
      options.logger.info({ failures }, "event topics subscribed after retrying");
      return;
    }
  }
}

async function stopEach(held: Stoppable[]): Promise<void> {
  await Promise.allSettled(held.map((work) => work.stop()));
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
