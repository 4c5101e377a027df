import { catalogueCost } from "@gw/events/testing";
import { describeWith } from "@gw/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowFromUsage } from "../records/usage-row.js";
import { recordUsage } from "../repositories/record-usage.js";
import { eventually, type GenerationsHarness, startGenerationsHarness } from "../test/harness.js";
import { publishUsage, type UsageOverrides, usageEvent } from "../test/usage-events.js";

const DAY_MS = 86_400_000;
const ALICE_KEY_HASH = "a".repeat(64);
const ALICE_OTHER_KEY_HASH = "b".repeat(64);

describeWith(["postgres"], "GET /api/v1/activity", () => {
  let harness: GenerationsHarness;
  const stored = async (id: string): Promise<void> => {
    await eventually(async () => {
      const row = await harness.database.db
        .selectFrom("generations")
        .select("id")
        .where("id", "=", id)
        .executeTakeFirst();
      return row !== undefined;
    });
  };
  let aliceAdmin: string;
  let bobAdmin: string;
  const today = new Date().toISOString().slice(0, 10);
  const yesterday = new Date(Date.now() - DAY_MS).toISOString().slice(0, 10);
  const events = [
    // Today: two on gpt-4o-mini at openai (one from an app, one from another key), one elsewhere.
    usage({ attribution: { httpReferer: "https://app.example/chat", appTitle: "Example" } }),
    usage({ keyHash: ALICE_OTHER_KEY_HASH }),
    usage({ model: "anthropic/claude-test", provider: "anthropic" }),
    // Yesterday, on the account's own provider key.
    usage({ createdAt: new Date(Date.now() - DAY_MS), isByok: true }),
    // Outside the window: 31 days ago.
    usage({ createdAt: new Date(Date.now() - 31 * DAY_MS) }),
    // Refused before any provider: a record, but no endpoint to count it under.
    usage({ provider: "", attempts: [] }),
    // A proxied call that names no model (GET /openai/v1/models): a record, but no model's activity.
    usage({ model: "", provider: "openai", apiType: "proxy", cost: catalogueCost(0n, 0n) }),
    // Another account's request on the same model, day and provider.
    usage({ accountId: "acct_bob", keyHash: "c".repeat(64) }),
  ];

  beforeAll(async () => {
    harness = await startGenerationsHarness();
    aliceAdmin = harness.keys.issue("acct_alice", "management");
    bobAdmin = harness.keys.issue("acct_bob", "management");
    for (const event of events) publishUsage(harness.bus, harness.topics.usage, event);
    await stored(events.at(-1)!.generationId);
    // Every event again, in a later batch (a redelivery must not count twice), then a last one: once it
    // is stored, the consumer has been through the redeliveries before it.
    for (const event of events) publishUsage(harness.bus, harness.topics.usage, event);
    const last = usageEvent({ accountId: "acct_last" });
    publishUsage(harness.bus, harness.topics.usage, last);
    await stored(last.generationId);
    expect(await harness.database.db.selectFrom("generations").select("id").execute()).toHaveLength(
      events.length + 1,
    );
  });

  afterAll(async () => {
    await harness?.close();
  });

  it("sums requests, tokens and cost per day, model and provider over the last 30 days, once per event", async () => {
    const response = await harness.get("/api/v1/activity", aliceAdmin);
    expect(response.status).toBe(200);
    const one = events[0]!;
    expect(response.body.data).toEqual([
      item(today, "anthropic/claude-test", "anthropic", 1, { usage: usd(one.costPico) }),
      item(today, "openai/gpt-4o-mini", "openai", 2, { usage: usd(2n * one.costPico) }),
      item(yesterday, "openai/gpt-4o-mini", "openai", 1, {
        usage: 0,
        byok_usage_inference: usd(one.upstreamPromptCostPico + one.upstreamCompletionCostPico),
      }),
    ]);
  });

  it("narrows to one day, one key or one app", async () => {
    const day = await harness.get(`/api/v1/activity?date=${yesterday}`, aliceAdmin);
    expect(day.body.data).toMatchObject([{ date: yesterday, requests: 1 }]);
    const key = await harness.get(`/api/v1/activity?api_key_hash=${ALICE_OTHER_KEY_HASH}`, aliceAdmin);
    expect(key.body.data).toMatchObject([{ date: today, model: "openai/gpt-4o-mini", requests: 1 }]);
    const generation = await harness.get(`/api/v1/generation?id=${events[0]!.generationId}`, aliceAdmin);
    const appId = (generation.body.data as { app_id: number }).app_id;
    expect(generation.body.data).toMatchObject({
      origin: "https://app.example",
      http_referer: "https://app.example/chat",
      app_title: "Example",
    });
    const app = await harness.get(`/api/v1/activity?app_id=${appId}`, aliceAdmin);
    expect(app.body.data).toMatchObject([{ date: today, model: "openai/gpt-4o-mini", requests: 1 }]);
  });

  it("never shows another account's activity, even under its key hash", async () => {
    const bob = await harness.get("/api/v1/activity", bobAdmin);
    expect(bob.body.data).toEqual([
      item(today, "openai/gpt-4o-mini", "openai", 1, { usage: usd(events[0]!.costPico) }),
    ]);
    const aliceKeyFromBob = await harness.get(`/api/v1/activity?api_key_hash=${ALICE_KEY_HASH}`, bobAdmin);
    expect(aliceKeyFromBob.body.data).toEqual([]);
  });

  it("is for management keys, and refuses a bad filter with a 400 naming it", async () => {
    const regular = await harness.get("/api/v1/activity", harness.keys.issue("acct_alice"));
    expect(regular.status).toBe(403);
    expect((await harness.get("/api/v1/activity")).status).toBe(401);
    const cases = [
      ["date=2026-13-01", "date"],
      ["date=2026-02-30", "date"],
      [`date=${new Date(Date.now() - 30 * DAY_MS).toISOString().slice(0, 10)}`, "date"],
      [`date=${new Date(Date.now() + DAY_MS).toISOString().slice(0, 10)}`, "date"],
      ["api_key_hash=xyz", "api_key_hash"],
      ["app_id=0", "app_id"],
      ["app_id=1e3", "app_id"],
      ["date=2026-01-01&date=2026-01-02", "date"],
    ] as const;
    for (const [query, field] of cases) {
      const refused = await harness.get(`/api/v1/activity?${query}`, aliceAdmin);
      expect([query, refused.status]).toEqual([query, 400]);
      expect(refused.body).toMatchObject({
        error: { message: expect.stringMatching(new RegExp(`^${field}: `)) },
      });
    }
  });

  it("adds to the rollup in the insert's transaction: a rollup that fails leaves no generation", async () => {
    const before = await harness.database.db.selectFrom("activity_daily").selectAll().execute();
    // Each cost fits a generation's numeric(38,12), their sum does not fit the rollup's: the rollup's
    // statement fails after the generations' insert succeeded, and must take it back.
    const huge = "90000000000000000000000000";
    const rows = [rowOf("acct_carol"), rowOf("acct_carol")].map((row) => ({ ...row, cost: huge }));
    await expect(recordUsage(harness.database.pool, rows)).rejects.toThrow(/numeric field overflow/);
    const ids = rows.map((row) => row.id);
    expect(
      await harness.database.db.selectFrom("generations").where("id", "in", ids).selectAll().execute(),
    ).toEqual([]);
    expect(await harness.database.db.selectFrom("activity_daily").selectAll().execute()).toEqual(before);
    expect(await recordUsage(harness.database.pool, [rowOf("acct_carol")])).toBe(1);
    const carol = await harness.get("/api/v1/activity", harness.keys.issue("acct_carol", "management"));
    expect(carol.body.data).toMatchObject([{ requests: 1 }]);
  });
});

function usage(overrides: UsageOverrides) {
  return usageEvent({ accountId: "acct_alice", keyHash: ALICE_KEY_HASH, ...overrides });
}

function usd(pico: bigint): number {
  return Number(pico) / 1e12;
}

function rowOf(accountId: string) {
  const event = usageEvent({ accountId });
  const envelope = {
    eventId: event.generationId,
    eventType: "usage.recorded",
    eventVersion: 1,
    accountId,
    payload: Buffer.alloc(0),
  };
  return rowFromUsage(envelope, event);
}

function item(
  date: string,
  model: string,
  provider: string,
  requests: number,
  money: { usage: number; byok_usage_inference?: number },
) {
  return {
    date,
    model,
    model_permaslug: model,
    endpoint_id: `${provider}:${model}`,
    provider_name: provider,
    usage: money.usage,
    byok_usage_inference: money.byok_usage_inference ?? 0,
    requests,
    prompt_tokens: 11 * requests,
    completion_tokens: 20 * requests,
    reasoning_tokens: 5 * requests,
  };
}
