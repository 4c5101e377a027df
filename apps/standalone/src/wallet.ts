import { ensureWalletJwtSecretFile, type WalletTokens, walletTokensFromEnv } from "@gw/auth";
import type { Env } from "@gw/config";

export interface StandaloneWallet {
  tokens: WalletTokens;
  /** The sign-in domain's URL: PUBLIC_BASE_URL, else the address the embedded default listens on. */
  publicBaseUrl: string;
  /** What the edge's own config reads to verify the same JWTs (and, with x402 on, PUBLIC_BASE_URL). */
  edgeEnv: Env;
}

/**
 * Wallet sign-in for the embedded default: WALLET_JWT_SECRET(_FILE) when given, else a secret
 * generated once into the data directory, so a newcomer's gateway signs wallets in with no setup and
 * its JWTs survive a restart.
 */
export function standaloneWallet(
  env: Env,
  settings: { dataDir: string; host: string; port: number },
): StandaloneWallet {
  const configured = Boolean(env.WALLET_JWT_SECRET || env.WALLET_JWT_SECRET_FILE);
  const edgeEnv: Env = configured
    ? {}
    : { WALLET_JWT_SECRET_FILE: ensureWalletJwtSecretFile(settings.dataDir), WALLET_JWT_SECRET: "" };
  const tokens = walletTokensFromEnv({ ...env, ...edgeEnv });
  if (!tokens) throw new Error("wallet JWT secret missing"); // unreachable: one was generated above
  const host = settings.host === "0.0.0.0" || settings.host === "::" ? "localhost" : settings.host;
  const publicBaseUrl = env.PUBLIC_BASE_URL || `http://${host}:${settings.port}`;
  // x402 needs PUBLIC_BASE_URL (its offers are never built from the request's Host, issue 33): here it
  // is the sign-in domain keys checks, so an offer's challenge names the domain keys accepts.
  if (env.X402_ENABLED === "true") edgeEnv.PUBLIC_BASE_URL = publicBaseUrl;
  return { tokens, publicBaseUrl, edgeEnv };
}
