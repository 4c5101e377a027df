import { randomUUID } from "node:crypto";
import { describeWith } from "@gw/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { addCredits } from "../operator/credits.js";
import { eventually } from "../test/eventually.js";
import { type Harness, startHarness, USD } from "../test/harness.js";

describeWith(["postgres", "redis"], "GET /api/v1/credits", () => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await startHarness();
  });

  afterAll(async () => {
    await harness.stop();
  });

  it("returns the account's total credits and usage in USD", async () => {
    const account = `acct_${randomUUID()}`;
    const key = harness.keys.addKey(account, "management");
    await addCredits(harness.db.database, {
      accountId: account,
      amountPico: 12n * USD + USD / 2n,
      kind: "purchase",
    });
    const eventId = harness.publishUsage({ accountId: account, costPico: 1_234_567_890n });
    await eventually(async () => {
      const row = await harness.db.database.db
        .selectFrom("ledger_entries")
        .select("id")
        .where("event_id", "=", eventId)
        .executeTakeFirst();
      expect(row).toBeDefined();
    });
    const response = await fetch(`${harness.running.httpUrl}/api/v1/credits`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: { total_credits: 12.5, total_usage: 0.00123456789 } });
  });

  it("answers zeros for an account with an empty ledger", async () => {
    const key = harness.keys.addKey(`acct_${randomUUID()}`, "management");
    const response = await fetch(`${harness.running.httpUrl}/api/v1/credits`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(await response.json()).toEqual({ data: { total_credits: 0, total_usage: 0 } });
  });
});
