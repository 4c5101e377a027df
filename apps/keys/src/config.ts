import { ConfigError, type Env, loadConfig, z } from "@gw/config";
import { controlPlaneEnv } from "@gw/service";
import { cloudDeclarationsEnv } from "./catalog/declared.js";
import { accountLifecycleEnv } from "./identity/accounts/lifecycle.js";

/** Keys app settings; a bad value stops start-up with a message naming the variable. */
export function loadKeysConfig(env: Env = process.env) {
  const parsed = loadConfig(
    {
      ...controlPlaneEnv({ http: 8081, grpc: 50051 }),
      /** Account-creation limits and the sweep of unused wallet accounts (identity/accounts/lifecycle.ts). */
      ...accountLifecycleEnv,
      /**
       * The gateway's public URL (the edge's): its host is the wallet sign-in domain, its origin the
       * sign-in URI's. Wallet sign-in also needs WALLET_JWT_SECRET (read by @gw/auth's walletTokensFromEnv).
       */
      PUBLIC_BASE_URL: z.url().optional(),
      /** Billing's gRPC address, for the usage fields of the Key object. */
      BILLING_GRPC_ADDRESS: z.string().min(1).default("127.0.0.1:50052"),
      /** The generations app's gRPC address: the endpoints view polls its measured endpoint health. */
      GENERATIONS_GRPC_ADDRESS: z.string().min(1).default("127.0.0.1:50053"),
      /** Where key-change events wait while the broker is unreachable, so none is lost on restart. */
      EVENT_SPOOL_DIR: z.string().min(1).default(".data/spool"),
      /** Seals BYOK provider keys (AES-256-GCM): 32 bytes as 64 hex characters or base64. Unset = no BYOK. */
      BYOK_MASTER_KEY: z
        .string()
        .refine(isMasterKey, "must be 32 bytes as 64 hex characters or base64")
        .optional(),
      /** The operator's zero-data-retention declarations of its cloud deployments (catalog/declared.ts). */
      ...cloudDeclarationsEnv,
      /**
       * During a rotation, the master key being replaced: it opens rows still sealed with it while the
       * keys app re-seals them under BYOK_MASTER_KEY (docs/operations.md, "Key rotation").
       */
      BYOK_MASTER_KEY_PREVIOUS: z
        .string()
        .refine(isMasterKey, "must be 32 bytes as 64 hex characters or base64")
        .optional(),
    },
    env,
  );
  if (parsed.BYOK_MASTER_KEY_PREVIOUS !== undefined) assertRotationPair(parsed);
  return parsed;
}

/** A previous key needs a current one, and a different one (the same key twice rotates nothing). */
function assertRotationPair(config: { BYOK_MASTER_KEY?: string; BYOK_MASTER_KEY_PREVIOUS?: string }): void {
  const { BYOK_MASTER_KEY: current, BYOK_MASTER_KEY_PREVIOUS: previous } = config;
  if (current === undefined)
    throw new ConfigError(["BYOK_MASTER_KEY_PREVIOUS: set only together with BYOK_MASTER_KEY (the new key)"]);
  if (previous !== undefined && masterKeyBytes(previous).equals(masterKeyBytes(current)))
    throw new ConfigError(["BYOK_MASTER_KEY_PREVIOUS: must differ from BYOK_MASTER_KEY"]);
}

function masterKeyBytes(value: string): Buffer {
  return /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, "hex") : Buffer.from(value, "base64");
}

function isMasterKey(value: string): boolean {
  if (/^[0-9a-fA-F]{64}$/.test(value)) return true;
  return /^[A-Za-z0-9+/]+={0,2}$/.test(value) && Buffer.from(value, "base64").length === 32;
}

export type KeysConfig = ReturnType<typeof loadKeysConfig>;
