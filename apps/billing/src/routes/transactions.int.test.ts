import { randomUUID } from "node:crypto";
import { describeWith } from "@gw/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { addCredits } from "../operator/credits.js";
import { type Harness, startHarness, USD } from "../test/harness.js";

interface Page {
  data: Array<{
    kind: string;
    amount: number;
    reference: string | null;
    entries: number;
    date: string | null;
  }>;
  next_cursor: string | null;
}

describeWith(["postgres", "redis"], "GET /api/v1/credits/transactions", () => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await startHarness();
  });

  afterAll(async () => {
    await harness.stop();
  });

  /** Usage rows as the usage consumer writes them, at chosen instants (so the days are known). */
  async function usage(accountId: string, at: string, amount: string, kind: "usage" | "refund" = "usage") {
    await harness.db.database.db
      .insertInto("ledger_entries")
      .values({
        account_id: accountId,
        kind,
        amount,
        event_id: randomUUID(),
        reference: null,
        key_hash: null,
        model: "m",
        created_at: new Date(at),
      })
      .execute();
  }

  async function get(key: string, query = ""): Promise<{ status: number; body: Page }> {
    const response = await fetch(`${harness.running.httpUrl}/api/v1/credits/transactions${query}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    return { status: response.status, body: (await response.json()) as Page };
  }

  it("lists each credit and one usage line per UTC day (net of refunds), newest first, paged by cursor", async () => {
    const account = `acct_${randomUUID()}`;
    const key = harness.keys.addKey(account, "management");
    await usage(account, "2026-01-02T10:00:00Z", "-0.25");
    await usage(account, "2026-01-02T23:59:59.999Z", "-0.5");
    await usage(account, "2026-01-02T12:00:00Z", "0.05", "refund");
    await usage(account, "2026-01-03T00:00:00Z", "-1");
    await addCredits(harness.db.database, {
      accountId: account,
      amountPico: 10n * USD,
      kind: "purchase",
      reference: `pay-${account}`,
    });
    await addCredits(harness.db.database, { accountId: account, amountPico: 2n * USD, kind: "grant" });

    const all = await get(key, "?limit=100");
    expect(all.status).toBe(200);
    expect(all.body.next_cursor).toBeNull();
    expect(all.body.data.map(({ kind, amount, entries, date }) => ({ kind, amount, entries, date }))).toEqual(
      [
        { kind: "grant", amount: 2, entries: 1, date: null },
        { kind: "purchase", amount: 10, entries: 1, date: null },
        { kind: "usage", amount: -1, entries: 1, date: "2026-01-03" },
        { kind: "usage", amount: -0.7, entries: 3, date: "2026-01-02" },
      ],
    );
    expect(all.body.data[1]?.reference).toBe(`pay-${account}`);

    // Two lines a page: the pages join to the whole list, none repeated or lost.
    const seen: Page["data"] = [];
    let cursor: string | null = null;
    do {
      const page = await get(key, `?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      expect(page.status).toBe(200);
      seen.push(...page.body.data);
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual(all.body.data);
  });

  it("shows only the calling key's account", async () => {
    const other = `acct_${randomUUID()}`;
    await addCredits(harness.db.database, { accountId: other, amountPico: 7n * USD, kind: "grant" });
    const empty = await get(harness.keys.addKey(`acct_${randomUUID()}`, "management"));
    expect(empty.body).toEqual({ data: [], next_cursor: null });
  });

  it("refuses a forged cursor and a limit out of range with 400, and an API key with 403", async () => {
    const account = `acct_${randomUUID()}`;
    const key = harness.keys.addKey(account, "management");
    const forged = [
      Buffer.from(JSON.stringify(["0000-01-01T00:00:00.000000Z", "1"])).toString("base64url"),
      Buffer.from(JSON.stringify(["2026-01-01T00:00:00.000000Z", "99999999999999999999"])).toString(
        "base64url",
      ),
      "not-a-cursor",
    ];
    for (const cursor of forged) {
      const answer = await get(key, `?cursor=${cursor}`);
      expect(answer.status, cursor).toBe(400);
    }
    expect((await get(key, "?limit=0")).status).toBe(400);
    expect((await get(harness.keys.addKey(account, "regular"))).status).toBe(403);
  });
});
