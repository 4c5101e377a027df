import { addCredits } from "@gw/billing";
import { KafkaEventBus } from "@gw/kafka";
import {
  type ChangeFeed,
  createAccount,
  createApiKey,
  listAccountManagementKeys,
  type ManagementKeySummary,
  revokeAccountManagementKey,
  revokeWalletTokens,
  rotateAccountManagementKey,
  setAccountScope,
} from "@gw/keys";
import { usdToPico } from "@gw/money";
import type { AppDatabases } from "../databases.js";

export interface CreatedAccountOutput {
  account_id: string;
  management_key: string;
}

/**
 * Creates an account with its management key and, when asked, credits it. Credits added by the
 * operator are purchases (they end the free tier), idempotent on a reference derived from the account.
 */
export async function createAccountCommand(
  databases: AppDatabases,
  input: { name: string; creditsUsd?: string },
): Promise<CreatedAccountOutput> {
  const account = await createAccount(databases.keys, { name: input.name });
  if (input.creditsUsd !== undefined && usdToPico(input.creditsUsd) > 0n) {
    await addCredits(databases.billing, {
      accountId: account.accountId,
      amountPico: usdToPico(input.creditsUsd),
      kind: "purchase",
      reference: `operator:initial:${account.accountId}`,
    });
  }
  return { account_id: account.accountId, management_key: account.managementKey };
}

export async function addCreditsCommand(
  databases: AppDatabases,
  input: { accountId: string; amountUsd: string; reference?: string },
): Promise<{ account_id: string; amount: number; entry_id: string; created: boolean }> {
  const amountPico = usdToPico(input.amountUsd);
  const added = await addCredits(databases.billing, {
    accountId: input.accountId,
    amountPico,
    kind: "purchase",
    ...(input.reference === undefined ? {} : { reference: input.reference }),
  });
  return {
    account_id: input.accountId,
    amount: Number(input.amountUsd),
    entry_id: String(added.entryId),
    created: added.created,
  };
}

/**
 * Sets the account's provider/model scope (null = unrestricted); every key of the account stays inside it.
 * With a broker (KAFKA_BROKERS) the account's keys are announced so edges apply the scope at once;
 * without one, edges apply it when their cached principals lapse (seconds).
 */
export async function accountScopeCommand(
  databases: AppDatabases,
  input: { accountId: string; providers: string[] | null; models: string[] | null },
  feed?: { brokers: string[]; keyChangesTopic: string },
): Promise<{ account_id: string; allowed_providers: string[] | null; allowed_models: string[] | null }> {
  const bus = feed ? new KafkaEventBus({ brokers: feed.brokers, clientId: "gw-cli" }) : undefined;
  const scope = await setAccountScope(
    databases.keys,
    { accountId: input.accountId, allowedProviders: input.providers, allowedModels: input.models },
    bus && feed ? { publisher: bus, keyChangesTopic: feed.keyChangesTopic } : undefined,
  ).finally(() => bus?.close());
  return {
    account_id: scope.accountId,
    allowed_providers: scope.allowedProviders,
    allowed_models: scope.allowedModels,
  };
}

/**
 * Revokes every wallet JWT issued so far to a wallet account (the wallet signs in again for a new one).
 * With a broker every edge drops the cached principal at once; without one, edges refuse the old tokens
 * when their cached principal lapses (seconds).
 */
export async function walletRevokeCommand(
  databases: AppDatabases,
  input: { accountId: string },
  feed?: { brokers: string[]; keyChangesTopic: string },
): Promise<{ account_id: string; key_id: string; token_version: number }> {
  const bus = feed ? new KafkaEventBus({ brokers: feed.brokers, clientId: "gw-cli" }) : undefined;
  return revokeWalletTokens(
    databases.keys,
    input,
    bus && feed ? { publisher: bus, keyChangesTopic: feed.keyChangesTopic } : undefined,
  ).finally(() => bus?.close());
}

/**
 * A key for an existing account (a wallet's account included): a management key to manage its keys
 * through the API, or an API key. The secret is printed once; only its hash is stored.
 */
export async function createKeyCommand(
  databases: AppDatabases,
  input: { accountId: string; name: string; management: boolean },
): Promise<{ account_id: string; key: string; hash: string; key_type: "management" | "regular" }> {
  const keyType = input.management ? "management" : "regular";
  const created = await createApiKey(databases.keys, {
    accountId: input.accountId,
    name: input.name,
    keyType,
  });
  return { account_id: input.accountId, key: created.key, hash: created.hash, key_type: keyType };
}

/** Where the CLI announces key changes: the broker when KAFKA_BROKERS is set, else nowhere (edges lapse). */
async function withFeed<T>(
  feed: { brokers: string[]; keyChangesTopic: string } | undefined,
  run: (changes: ChangeFeed | undefined) => Promise<T>,
): Promise<T> {
  const bus = feed ? new KafkaEventBus({ brokers: feed.brokers, clientId: "gw-cli" }) : undefined;
  return run(bus && feed ? { publisher: bus, keyChangesTopic: feed.keyChangesTopic } : undefined).finally(
    () => bus?.close(),
  );
}

/** The account's management keys (hash, name, label, state): never a secret. */
export async function managementKeysListCommand(
  databases: AppDatabases,
  input: { accountId: string },
): Promise<{ account_id: string; data: ManagementKeySummary[] }> {
  return {
    account_id: input.accountId,
    data: await listAccountManagementKeys(databases.keys, input.accountId),
  };
}

/**
 * Revokes a management key. The account's last usable one is refused unless `allowLast`; with a broker
 * every edge refuses the key at once, without one when its cached principal lapses (seconds).
 */
export async function managementKeysRevokeCommand(
  databases: AppDatabases,
  input: { accountId: string; hash: string; allowLast: boolean },
  feed?: { brokers: string[]; keyChangesTopic: string },
): Promise<{ account_id: string; hash: string; revoked: true }> {
  return withFeed(feed, (changes) => revokeAccountManagementKey(databases.keys, input, changes));
}

/** Rotates a management key: the new secret is printed once, the old one is refused from now on. */
export async function managementKeysRotateCommand(
  databases: AppDatabases,
  input: { accountId: string; hash: string },
  feed?: { brokers: string[]; keyChangesTopic: string },
): Promise<{ account_id: string; key: string; hash: string; replaced: string }> {
  return withFeed(feed, (changes) => rotateAccountManagementKey(databases.keys, input, changes));
}
