import { LimitReset } from "@gw/proto/keys/v1/keys";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EMPTY_USAGE } from "../test/billing.js";
import { type EdgeHarness, startEdgeHarness } from "../test/harness.js";
import { readError, readJson } from "../test/http.js";
import { testKey } from "../test/principals.js";

const USD = 1_000_000_000_000n;
const key = testKey("acct-key", {
  limitPico: 10n * USD,
  limitReset: LimitReset.LIMIT_RESET_DAILY,
  label: "lr_live_000...0001",
});
const admin = testKey("acct-key", { management: true });
let edge: EdgeHarness;

beforeAll(async () => {
  edge = await startEdgeHarness({ keys: [key, admin] });
  edge.billing.usageByKey.set(key.principal.keyHash, {
    ...EMPTY_USAGE,
    isFreeTier: false,
    keyUsagePico: 4n * USD,
    keyUsageDailyPico: USD + USD / 4n,
    keyUsageWeeklyPico: 2n * USD,
    keyUsageMonthlyPico: 3n * USD,
  });
});

afterAll(async () => {
  await edge?.stop();
});

type KeyBody = { data: Record<string, unknown> };

describe("GET /v1/key", () => {
  it("answers the key's limits and spend from the principal and billing's GetUsage", async () => {
    for (const path of ["/v1/key", "/api/v1/key"]) {
      const response = await fetch(`${edge.url}${path}`, {
        headers: { authorization: `Bearer ${key.secret}` },
      });
      expect(response.status).toBe(200);
      const { data } = await readJson<KeyBody>(response);
      expect(data).toMatchObject({
        label: "lr_live_000...0001",
        limit: 10,
        limit_reset: "daily",
        limit_remaining: 8.75,
        usage: 4,
        usage_daily: 1.25,
        usage_weekly: 2,
        usage_monthly: 3,
        is_free_tier: false,
        is_management_key: false,
        workspace_id: "acct-key",
        expires_at: null,
      });
    }
    expect(edge.billing.usageRequests.at(-1)).toEqual({
      accountId: "acct-key",
      keyHash: key.principal.keyHash,
    });
  });

  it("answers a management key about itself", async () => {
    const response = await fetch(`${edge.url}/v1/key`, {
      headers: { authorization: `Bearer ${admin.secret}` },
    });
    const { data } = await readJson<KeyBody>(response);
    expect(data).toMatchObject({
      is_management_key: true,
      is_provisioning_key: true,
      limit: null,
      limit_remaining: null,
    });
  });

  it("401 without a key, 503 when billing cannot answer", async () => {
    expect((await readError(await fetch(`${edge.url}/v1/key`))).status).toBe(401);
    edge.billing.unavailable = true;
    try {
      const error = await readError(
        await fetch(`${edge.url}/v1/key`, { headers: { authorization: `Bearer ${key.secret}` } }),
      );
      expect([error.status, error.type]).toEqual([503, "service_unavailable"]);
    } finally {
      edge.billing.unavailable = false;
    }
  });
});
