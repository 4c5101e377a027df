import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { hashSecret } from "@gw/auth";
import { addCredits, type BillingTables } from "@gw/billing";
import type { Database } from "@gw/db";
import { authenticateKey, createAccount, createApiKey, type KeysTables } from "@gw/keys";
import { usdToPico } from "@gw/money";

export interface DevCredentials {
  account_id: string;
  management_key: string;
  api_key: string;
}

export const DEV_CREDITS_USD = "10";

export function devCredentialsFile(dataDirectory: string): string {
  return join(dataDirectory, "dev-credentials.json");
}

/**
 * On first start the embedded default creates a dev account with 10 USD of credits (a grant, so
 * the account stays on the free tier), a management key and an API key, and keeps them in
 * `.data/dev-credentials.json` (readable by the owner only). Later starts reuse them as long as the
 * API key still authenticates against this database.
 */
export async function ensureDevCredentials(
  dataDirectory: string,
  keys: Database<KeysTables>,
  billing: Database<BillingTables>,
): Promise<{ credentials: DevCredentials; created: boolean }> {
  const file = devCredentialsFile(dataDirectory);
  const existing = readCredentials(file);
  if (existing) {
    const answer = await authenticateKey(keys.db, hashSecret(existing.api_key));
    if (answer.result?.$case === "principal") return { credentials: existing, created: false };
  }
  const account = await createAccount(keys, { name: "dev" });
  await addCredits(billing, {
    accountId: account.accountId,
    amountPico: usdToPico(DEV_CREDITS_USD),
    kind: "grant",
    reference: `dev-credentials:${account.accountId}`,
  });
  const apiKey = await createApiKey(keys, { accountId: account.accountId, name: "dev api key" });
  const credentials: DevCredentials = {
    account_id: account.accountId,
    management_key: account.managementKey,
    api_key: apiKey.key,
  };
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  return { credentials, created: true };
}

function readCredentials(file: string): DevCredentials | undefined {
  if (!existsSync(file)) return undefined;
  const parsed: unknown = JSON.parse(readFileSync(file, "utf8"));
  if (
    typeof parsed === "object" &&
    parsed !== null &&
    "account_id" in parsed &&
    "management_key" in parsed &&
    "api_key" in parsed &&
    typeof parsed.account_id === "string" &&
    typeof parsed.management_key === "string" &&
    typeof parsed.api_key === "string"
  ) {
    return { account_id: parsed.account_id, management_key: parsed.management_key, api_key: parsed.api_key };
  }
  return undefined;
}
