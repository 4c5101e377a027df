import { describe, expect, it } from "vitest";
import type { ApiKeyRow } from "../repositories/api-keys.js";
import { type KeyUsage, NEW_KEY_USAGE } from "../usage/billing.js";
import { keyView } from "./view.js";

const USD = 1_000_000_000_000n;

function row(overrides: Partial<ApiKeyRow> = {}): ApiKeyRow {
  return {
    hash: "a".repeat(64),
    account_id: "acct_1",
    key_type: "regular",
    name: "k",
    label: "lr_live_abc...wxyz",
    disabled: false,
    limit: "10.000000000000",
    limit_reset: null,
    allowed_providers: null,
    allowed_models: null,
    include_byok_in_limit: false,
    expires_at: null,
    created_at: new Date("2026-01-01T00:00:00Z"),
    updated_at: new Date("2026-01-02T00:00:00Z"),
    deleted_at: null,
    created_by: null,
    wallet_token_version: null,
    ...overrides,
  };
}

const USAGE: KeyUsage = {
  usage: 7n * USD,
  daily: 1n * USD,
  weekly: 2n * USD,
  monthly: 3n * USD,
  byok: 4n * USD,
  byokDaily: USD / 2n,
  byokWeekly: USD,
  byokMonthly: 2n * USD,
};

describe("Key object", () => {
  it("counts the cap against the window named by limit_reset", () => {
    expect(keyView(row(), USAGE).limit_remaining).toBe(3);
    expect(keyView(row({ limit_reset: "daily" }), USAGE).limit_remaining).toBe(9);
    expect(keyView(row({ limit_reset: "weekly" }), USAGE).limit_remaining).toBe(8);
    expect(keyView(row({ limit_reset: "monthly" }), USAGE).limit_remaining).toBe(7);
  });

  it("adds BYOK spend to the window only when include_byok_in_limit is set", () => {
    expect(keyView(row({ limit_reset: "daily", include_byok_in_limit: true }), USAGE).limit_remaining).toBe(
      8.5,
    );
    expect(keyView(row({ include_byok_in_limit: true }), USAGE).limit_remaining).toBe(0);
  });

  it("has no remaining amount without a cap and never a negative one", () => {
    expect(keyView(row({ limit: null }), USAGE).limit_remaining).toBeNull();
    expect(keyView(row({ limit: "1.000000000000" }), USAGE).limit_remaining).toBe(0);
  });

  it("renders money as USD numbers and timestamps as ISO UTC", () => {
    const view = keyView(
      row({ limit: "0.000000150000", expires_at: new Date("2027-05-01T12:00:00Z") }),
      USAGE,
    );
    expect(view.limit).toBe(0.00000015);
    expect(view.usage).toBe(7);
    expect(view.byok_usage_monthly).toBe(2);
    expect(view.expires_at).toBe("2027-05-01T12:00:00.000Z");
    expect(view.created_at).toBe("2026-01-01T00:00:00.000Z");
    expect(view.workspace_id).toBe("acct_1");
    expect(keyView(row(), NEW_KEY_USAGE).limit_remaining).toBe(10);
  });
});
