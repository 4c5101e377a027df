import { z } from "@gw/config";
import { type AccountCreationLimits, DEFAULT_ACCOUNT_CREATION_LIMITS } from "../wallets/creation-limits.js";
import { DEFAULT_SWEEP, type SweepSettings } from "./sweep.js";

/** How many accounts may be created, and when unused ones are removed (README: configuration). */
export interface AccountLifecycle {
  creation: AccountCreationLimits;
  sweep: SweepSettings;
}

export const DEFAULT_ACCOUNT_LIFECYCLE: AccountLifecycle = {
  creation: DEFAULT_ACCOUNT_CREATION_LIMITS,
  sweep: DEFAULT_SWEEP,
};

const count = (fallback: number) => z.coerce.number().int().min(0).max(1_000_000_000).default(fallback);

/** The variables, for the keys app's config and the embedded default's (which runs the keys app inside). */
export const accountLifecycleEnv = {
  /** New accounts per client address (IPv6: per /64) and window; 0 = no per-address limit. */
  ACCOUNT_CREATION_PER_ADDRESS: count(DEFAULT_ACCOUNT_CREATION_LIMITS.perAddress),
  /** New accounts on the whole gateway per window; 0 = no global limit. */
  ACCOUNT_CREATION_GLOBAL: count(DEFAULT_ACCOUNT_CREATION_LIMITS.global),
  /** The creation limits' fixed window, in seconds (1 s to 1 day). */
  ACCOUNT_CREATION_WINDOW_S: z.coerce
    .number()
    .int()
    .min(1)
    .max(86_400)
    .default(DEFAULT_ACCOUNT_CREATION_LIMITS.windowSeconds),
  /** Idle seconds after which an unused wallet account is removed; 0 = never. */
  ACCOUNT_SWEEP_AFTER_S: count(DEFAULT_SWEEP.afterSeconds),
  /** Seconds between two rounds of the sweep. */
  ACCOUNT_SWEEP_INTERVAL_S: z.coerce.number().int().min(1).max(86_400).default(DEFAULT_SWEEP.intervalSeconds),
};

type LifecycleVariables = {
  [name in keyof typeof accountLifecycleEnv]: number;
};

export function accountLifecycleFrom(config: LifecycleVariables): AccountLifecycle {
  return {
    creation: {
      perAddress: config.ACCOUNT_CREATION_PER_ADDRESS,
      global: config.ACCOUNT_CREATION_GLOBAL,
      windowSeconds: config.ACCOUNT_CREATION_WINDOW_S,
    },
    sweep: {
      afterSeconds: config.ACCOUNT_SWEEP_AFTER_S,
      intervalSeconds: config.ACCOUNT_SWEEP_INTERVAL_S,
      batchSize: DEFAULT_SWEEP.batchSize,
    },
  };
}
