import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_WALLET_JWT_TTL_S, MIN_WALLET_JWT_SECRET_BYTES, WalletTokens } from "./wallet-token.js";

/** The variables every app that issues or accepts wallet JWTs reads. */
export interface WalletJwtEnv {
  WALLET_JWT_SECRET?: string | undefined;
  /** A file holding the secret, for deployments that mount secrets as files. */
  WALLET_JWT_SECRET_FILE?: string | undefined;
  WALLET_JWT_TTL_S?: string | undefined;
  NODE_ENV?: string | undefined;
}

export class WalletConfigError extends Error {}

/**
 * WalletTokens from the environment, or undefined when no secret is configured (wallet sign-in then
 * answers 503 and wallet JWTs are refused). In production (`NODE_ENV=production`) a missing secret stops
 * start-up: a gateway that silently lacks wallet sign-in would look healthy.
 */
export function walletTokensFromEnv(env: WalletJwtEnv): WalletTokens | undefined {
  const secret = secretFrom(env);
  if (!secret) {
    if (env.NODE_ENV === "production")
      throw new WalletConfigError("WALLET_JWT_SECRET (or WALLET_JWT_SECRET_FILE) is required in production");
    return undefined;
  }
  return new WalletTokens({ secret, ttlSeconds: ttlFrom(env.WALLET_JWT_TTL_S) });
}

function secretFrom(env: WalletJwtEnv): Uint8Array | undefined {
  if (env.WALLET_JWT_SECRET && env.WALLET_JWT_SECRET_FILE)
    throw new WalletConfigError("set WALLET_JWT_SECRET or WALLET_JWT_SECRET_FILE, not both");
  let text = env.WALLET_JWT_SECRET;
  let name = "WALLET_JWT_SECRET";
  if (env.WALLET_JWT_SECRET_FILE) {
    name = "WALLET_JWT_SECRET_FILE";
    try {
      text = readFileSync(env.WALLET_JWT_SECRET_FILE, "utf8").trim();
    } catch (error) {
      throw new WalletConfigError(`WALLET_JWT_SECRET_FILE: cannot read ${env.WALLET_JWT_SECRET_FILE}`, {
        cause: error,
      });
    }
  }
  if (text === undefined || text === "") return undefined;
  const bytes = new TextEncoder().encode(text);
  if (bytes.length < MIN_WALLET_JWT_SECRET_BYTES)
    throw new WalletConfigError(`${name}: must be at least ${MIN_WALLET_JWT_SECRET_BYTES} bytes`);
  return bytes;
}

function ttlFrom(value: string | undefined): number {
  if (value === undefined || value === "") return DEFAULT_WALLET_JWT_TTL_S;
  const ttl = Number(value);
  if (!Number.isInteger(ttl) || ttl < 60 || ttl > 30 * 86_400)
    throw new WalletConfigError("WALLET_JWT_TTL_S: must be a whole number of seconds from 60 to 2592000");
  return ttl;
}

export const WALLET_JWT_SECRET_FILE_NAME = "wallet-jwt.secret";

/**
 * The embedded default's secret: generated once into the data directory (mode 0600) and reused on
 * every start, so wallet JWTs survive a restart. Returns the file's path.
 */
export function ensureWalletJwtSecretFile(dataDir: string): string {
  const path = join(dataDir, WALLET_JWT_SECRET_FILE_NAME);
  if (!existsSync(path)) {
    mkdirSync(dataDir, { recursive: true });
    // "wx": two processes starting at once cannot both write (the second one's write fails, its read works).
    try {
      writeFileSync(path, `${randomBytes(32).toString("hex")}\n`, { mode: 0o600, flag: "wx" });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
  chmodSync(path, 0o600);
  return path;
}
