import type { LimitResetColumn } from "../../db/schema.js";

/** A key's settings as the create route and the operator CLI give them, already parsed. */
export interface KeySettings {
  name: string;
  /** Spending cap in pico-dollars; null = no cap. */
  limitPico: bigint | null;
  limitReset: LimitResetColumn | null;
  expiresAt: Date | null;
  allowedProviders: string[] | null;
  allowedModels: string[] | null;
  includeByokInLimit: boolean;
}

/** A PATCH: only the fields present change. */
export interface KeyPatch {
  name?: string;
  disabled?: boolean;
  limitPico?: bigint | null;
  limitReset?: LimitResetColumn | null;
  allowedProviders?: string[] | null;
  allowedModels?: string[] | null;
  includeByokInLimit?: boolean;
  /** Null removes the expiry. */
  expiresAt?: Date | null;
}

export const DEFAULT_SETTINGS: Omit<KeySettings, "name"> = {
  limitPico: null,
  limitReset: null,
  expiresAt: null,
  allowedProviders: null,
  allowedModels: null,
  includeByokInLimit: false,
};
