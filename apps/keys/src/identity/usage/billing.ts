import { GatewayError } from "@gw/errors";
import {
  BillingServiceClient,
  type GetUsageRequest,
  type GetUsageResponse,
  type GrantCreditsRequest,
  type GrantCreditsResponse,
} from "@gw/proto/billing/v1/billing";
import { connectClient, type ServiceTokenIssuer } from "@gw/rpc";

/**
 * The slice of billing's gRPC contract the keys app uses: spend per key and UTC window, and the
 * operator's credits (POST /api/v1/admin/accounts/{id}/credits; absent in tests that never grant).
 */
export interface UsageSource {
  getUsage(request: GetUsageRequest): Promise<GetUsageResponse>;
  grantCredits?(request: GrantCreditsRequest): Promise<GrantCreditsResponse>;
}

export function connectBillingUsage(
  address: string,
  options: { timeoutMs?: number; issuer?: ServiceTokenIssuer | undefined } = {},
): { usage: UsageSource; close(): void } {
  const { issuer, timeoutMs = 3_000 } = options;
  const client = connectClient(BillingServiceClient, address, { audience: "billing", issuer, timeoutMs });
  return {
    usage: { getUsage: client.getUsage, grantCredits: client.grantCredits },
    close: client.close,
  };
}

/** Spend of one key in pico-dollars; `byok*` is spend on the account's own provider credentials. */
export interface KeyUsage {
  usage: bigint;
  daily: bigint;
  weekly: bigint;
  monthly: bigint;
  byok: bigint;
  byokDaily: bigint;
  byokWeekly: bigint;
  byokMonthly: bigint;
}

/** A key that was created a moment ago has spent nothing: this is a fact, not a fallback. */
export const NEW_KEY_USAGE: KeyUsage = {
  usage: 0n,
  daily: 0n,
  weekly: 0n,
  monthly: 0n,
  byok: 0n,
  byokDaily: 0n,
  byokWeekly: 0n,
  byokMonthly: 0n,
};

/**
 * Reads a key's usage from billing. Billing unreachable is a 503: showing zeros would tell a client
 * its key has spent nothing when we simply do not know.
 */
export async function keyUsage(
  source: UsageSource,
  key: { account_id: string; hash: string },
): Promise<KeyUsage> {
  let response: GetUsageResponse;
  try {
    response = await source.getUsage({ accountId: key.account_id, keyHash: key.hash });
  } catch (error) {
    throw new GatewayError("service_unavailable", "billing service is unavailable", {
      code: "dependency_unavailable",
      cause: error,
    });
  }
  return {
    usage: response.keyUsagePico,
    daily: response.keyUsageDailyPico,
    weekly: response.keyUsageWeeklyPico,
    monthly: response.keyUsageMonthlyPico,
    byok: response.keyByokUsagePico,
    byokDaily: response.keyByokUsageDailyPico,
    byokWeekly: response.keyByokUsageWeeklyPico,
    byokMonthly: response.keyByokUsageMonthlyPico,
  };
}

/** Usage of a page of keys, a bounded number of calls in flight so a 500-key page cannot flood billing. */
export async function keyUsages(
  source: UsageSource,
  keys: ReadonlyArray<{ account_id: string; hash: string }>,
  concurrency = 16,
): Promise<KeyUsage[]> {
  const results: KeyUsage[] = new Array(keys.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < keys.length) {
      const index = next++;
      results[index] = await keyUsage(source, keys[index] as { account_id: string; hash: string });
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, keys.length) }, worker));
  return results;
}
