import { describeWith } from "@gw/testing";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { rowFromUsage } from "../records/usage-row.js";
import { recordUsage } from "../repositories/record-usage.js";
import { type GenerationsHarness, startGenerationsHarness } from "../test/harness.js";
import { type UsageOverrides, usageEvent } from "../test/usage-events.js";

const KEY_A = "a".repeat(64);
const KEY_B = "b".repeat(64);
const BASE = Date.parse("2026-03-10T12:00:00.000Z");
const MINUTE = 60_000;

interface Listed {
  id: string;
  created_at: string;
  model: string;
  key_hash: string;
}
interface Page {
  data: Listed[];
  next_cursor: string | null;
}

describeWith(["postgres"], "GET /api/v1/generations", () => {
  let harness: GenerationsHarness;
  let alice: string;
  let bob: string;
  let aliceApiKey: string;
  /** Alice's rows, newest first (created_at desc, id desc), as the route must list them. */
  let aliceIds: string[];

  const store = async (accountId: string, overrides: UsageOverrides): Promise<string> => {
    const event = usageEvent({ accountId, keyHash: KEY_A, ...overrides });
    const envelope = {
      eventId: event.generationId,
      eventType: "usage.recorded",
      eventVersion: 1,
      accountId,
      payload: Buffer.alloc(0),
    };
    await recordUsage(harness.database.pool, [rowFromUsage(envelope, event)]);
    return event.generationId;
  };
  const page = async (query: string, key = alice): Promise<Page> => {
    const response = await harness.get(`/api/v1/generations${query}`, key);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body as unknown as Page;
  };
  /** Every page of the query from a position on (the newest page by default), following next_cursor. */
  const walk = async (query: string, key = alice, from: string | null = null): Promise<string[]> => {
    const ids: string[] = [];
    let cursor = from;
    do {
      const params = new URLSearchParams(query);
      if (cursor !== null) params.set("cursor", cursor);
      const next: Page = await page(`?${params}`, key);
      ids.push(...next.data.map((item) => item.id));
      cursor = next.next_cursor;
    } while (cursor !== null);
    return ids;
  };

  beforeAll(async () => {
    harness = await startGenerationsHarness();
    alice = harness.keys.issue("acct_alice", "management");
    bob = harness.keys.issue("acct_bob", "management");
    aliceApiKey = harness.keys.issue("acct_alice", "regular");
    const stored: { id: string; at: number }[] = [];
    // Seven of Alice's requests: three share one instant (the keyset must break ties by id), one is on
    // another key and one on another model; Bob has two in between.
    const plan: { minutes: number; overrides?: UsageOverrides }[] = [
      { minutes: 0 },
      { minutes: 1, overrides: { keyHash: KEY_B } },
      { minutes: 2 },
      { minutes: 2 },
      {
        minutes: 2,
        overrides: { model: "anthropic/claude-test", provider: "anthropic", finishReason: "error" },
      },
      { minutes: 60 * 24 },
      { minutes: 60 * 24 + 5, overrides: { cancelled: true } },
    ];
    for (const { minutes, overrides } of plan) {
      const at = BASE + minutes * MINUTE;
      stored.push({ id: await store("acct_alice", { createdAt: new Date(at), ...overrides }), at });
    }
    await store("acct_bob", { createdAt: new Date(BASE + 3 * MINUTE), keyHash: "c".repeat(64) });
    await store("acct_bob", { createdAt: new Date(BASE + 2 * MINUTE), keyHash: "c".repeat(64) });
    aliceIds = stored
      .sort((x, y) => y.at - x.at || (x.id < y.id ? 1 : x.id > y.id ? -1 : 0))
      .map((row) => row.id);
  });

  afterAll(async () => {
    await harness?.close();
  });

  it("lists the account's generations newest first, each as GET /api/v1/generation renders it", async () => {
    const first = await page("");
    expect(first.data.map((item) => item.id)).toEqual(aliceIds);
    expect(first.next_cursor).toBeNull();
    const single = await harness.get(`/api/v1/generation?id=${aliceIds[0]}`, alice);
    expect(first.data[0]).toEqual(single.body.data);
  });

  it("pages with an opaque cursor to the end, every row once, ties at one instant included", async () => {
    for (const limit of [1, 2, 3]) {
      expect(await walk(`limit=${limit}`)).toEqual(aliceIds);
    }
    const two = await page("?limit=2");
    expect(two.data).toHaveLength(2);
    expect(two.next_cursor).toEqual(expect.any(String));
    expect(two.next_cursor).not.toContain(aliceIds[1]);
  });

  it("keeps the following pages stable when newer requests are recorded meanwhile", async () => {
    const first = await page("?limit=3");
    const newer: string[] = [];
    onTestFinished(async () => {
      await harness.database.db.deleteFrom("generations").where("id", "in", newer).execute();
    });
    const later = new Date(BASE + 3 * 24 * 60 * MINUTE);
    newer.push(
      await store("acct_alice", { createdAt: later }),
      await store("acct_alice", { createdAt: later }),
    );
    const rest = await walk("limit=3", alice, first.next_cursor);
    expect([...first.data.map((item) => item.id), ...rest]).toEqual(aliceIds);
    // The newer rows lead a fresh listing.
    const fresh = await page("?limit=2");
    expect(fresh.data.map((item) => item.id).sort()).toEqual([...newer].sort());
  });

  it("filters by API key, model and time range, paging inside the filter", async () => {
    const byKey = await page(`?api_key_hash=${KEY_B}`);
    expect(byKey.data.map((item) => item.key_hash)).toEqual([KEY_B]);
    expect(await walk(`api_key_hash=${KEY_A}&limit=2`)).toHaveLength(6);
    const byModel = await page("?model=anthropic/claude-test");
    expect(byModel.data.map((item) => item.model)).toEqual(["anthropic/claude-test"]);
    // A bare `to` date includes that whole UTC day; `from` is inclusive.
    expect(await walk("to=2026-03-10&limit=2")).toEqual(aliceIds.slice(2));
    expect(await walk("from=2026-03-11")).toEqual(aliceIds.slice(0, 2));
    const exact = new Date(BASE + 2 * MINUTE).toISOString();
    expect(await walk(`from=${exact}&to=2026-03-10T12:02:00.001%2B00:00&limit=1`)).toEqual(
      aliceIds.slice(2, 5),
    );
  });

  it("filters by provider and by how the request ended (issue 34)", async () => {
    const byProvider = await page("?provider=anthropic");
    expect(byProvider.data.map((item) => item.model)).toEqual(["anthropic/claude-test"]);
    const failed = await page("?status=error");
    expect(failed.data.map((item) => item.model)).toEqual(["anthropic/claude-test"]);
    const cancelled = await walk("status=cancelled");
    expect(cancelled).toEqual([aliceIds[0]]);
    const completed = await walk("status=completed&limit=2");
    expect(completed).toHaveLength(5);
    expect(completed).not.toContain(aliceIds[0]);
    expect(await page("?provider=anthropic&status=completed")).toEqual({ data: [], next_cursor: null });
  });

  it("never lists another account's generations, whatever cursor it is given", async () => {
    const bobs = await page("", bob);
    expect(bobs.data).toHaveLength(2);
    expect(bobs.data.map((item) => item.id).some((id) => aliceIds.includes(id))).toBe(false);
    const aliceCursor = (await page("?limit=1")).next_cursor ?? "";
    const withAlices = await page(`?cursor=${encodeURIComponent(aliceCursor)}`, bob);
    expect(withAlices.data.map((item) => item.id).some((id) => aliceIds.includes(id))).toBe(false);
    const stranger = harness.keys.issue("acct_nobody", "management");
    expect(await page("", stranger)).toEqual({ data: [], next_cursor: null });
  });

  it("refuses an API key (403) and a missing key (401)", async () => {
    const apiKey = await harness.get("/api/v1/generations", aliceApiKey);
    expect(apiKey.status).toBe(403);
    expect(apiKey.body).toMatchObject({
      error: { code: 403, metadata: { reason: "management_key_required" } },
    });
    expect((await harness.get("/api/v1/generations")).status).toBe(401);
  });

  describe("bad input is a 400 naming the parameter", () => {
    const cases: [string, string][] = [
      ["?limit=0", "limit"],
      ["?limit=101", "limit"],
      ["?limit=ten", "limit"],
      ["?limit=1.5", "limit"],
      ["?cursor=bm90LWEtY3Vyc29y", "cursor"],
      [`?cursor=${Buffer.from('["2026-03-10T12:00:00Z","x"]').toString("base64url")}`, "cursor"],
      ["?api_key_hash=ABC", "api_key_hash"],
      ["?model=", "model"],
      ["?provider=", "provider"],
      ["?status=failed", "status"],
      ["?from=yesterday", "from"],
      ["?to=2026-02-30", "to"],
      ["?from=2026-03-10T12:00:00", "from"],
      ["?from=2026-03-11&to=2026-03-10", "from"],
    ];
    it.each(cases)("%s", async (query, field) => {
      const response = await harness.get(`/api/v1/generations${query}`, alice);
      expect(response.status).toBe(400);
      const error = (response.body as { error: { message: string } }).error;
      expect(error.message).toContain(field);
    });
  });
});
