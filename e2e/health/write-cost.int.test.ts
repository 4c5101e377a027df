import { encodeUsageRecorded, InProcessEventBus } from "@gw/events";
import { exampleUsageFacts } from "@gw/events/testing";
import { describeWith } from "@gw/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type HealthHarness, startHealthHarness } from "./control-plane.js";
import { countStatements, PROBE, type TableWrites, tableWrites, writesOf } from "./write-cost.js";

// What the generations app writes per usage event and sends per consumed batch, the records and the
// figures derived from them (activity rollup, endpoint health) together: counted on the app's own pool
// and read from PostgreSQL's cumulative statistics of its database.

const MODEL = "meta-llama/llama-3.3-70b-instruct";

describeWith(["postgres"], "what the generations app writes per usage event", () => {
  let harness: HealthHarness;
  let counter: ReturnType<typeof countStatements>;

  beforeAll(async () => {
    harness = await startHealthHarness({ bus: async () => new InProcessEventBus() });
    // The figures' timer reads the window every second and sweeps it every minute, whatever the traffic.
    counter = countStatements(harness.database.pool, (kind) =>
      /^(select|delete from) endpoint_health_/.test(kind),
    );
  }, 60_000);

  afterAll(async () => {
    await harness?.close();
  });

  function publish(count: number): void {
    const now = Date.now();
    for (let index = 0; index < count; index++) {
      const facts = exampleUsageFacts({
        accountId: `acct_${index % 7}`,
        model: MODEL,
        provider: "together",
        startedAt: now - 1_000,
        generationStartedAt: now - 500,
        endedAt: now,
        ...(index % 2 === 0
          ? { attribution: { httpReferer: "https://app.example/chat", appTitle: "" } }
          : {}),
        attempts: [
          { provider: "together", model: MODEL, status: 200, latencyMs: 100 + index, isByok: false },
        ],
      });
      const event = encodeUsageRecorded(facts, { byokFeePercent: 0 });
      harness.bus.publish(harness.topics.usage, event.key, event.value, event.headers);
    }
  }

  const recorded = async (): Promise<number> => {
    const result = await harness.database.pool.query<{ n: string }>(
      `${PROBE} select count(*)::text as n from generations`,
    );
    return Number(result.rows[0]?.n ?? 0);
  };

  const counted = async (): Promise<number> => {
    const result = await harness.database.pool.query<{ n: string }>(
      `${PROBE} select coalesce(sum(attempts), 0)::text as n from endpoint_health_minutes`,
    );
    return Number(result.rows[0]?.n ?? 0);
  };

  /** Publishes `count` events and waits until the records and the health buckets have them all. */
  async function consume(count: number): Promise<void> {
    const [records, attempts] = [await recorded(), await counted()];
    publish(count);
    await expect.poll(recorded, { timeout: 20_000, interval: 20 }).toBe(records + count);
    await expect.poll(counted, { timeout: 20_000, interval: 20 }).toBe(attempts + count);
  }

  /** Statements the consumer sent per batch: batches are counted by their insert into generations. */
  function perBatch(): { batches: number; statements: number; commits: number; kinds: string } {
    const kinds = [...counter.counts.byKind.entries()];
    const batches = kinds
      .filter(([kind]) => kind === "insert into generations" || /^with….*\bgenerations\b/.test(kind))
      .reduce((sum, [, n]) => sum + n, 0);
    const statements = kinds.reduce((sum, [, n]) => sum + n, 0);
    return {
      batches,
      statements,
      commits: counter.counts.commits,
      kinds: kinds.map(([kind, n]) => `${kind}: ${n}`).join(", "),
    };
  }

  it("a batch of 1, 20 or 200 events costs one statement and one commit, records and figures together", async () => {
    for (const size of [1, 20, 200]) {
      counter.reset();
      await consume(size);
      const cost = perBatch();
      console.info(`batch of ${size}:`, JSON.stringify(cost));
      expect(cost.batches).toBeGreaterThan(0);
      expect(cost.statements).toBe(cost.batches);
      expect(cost.commits).toBe(cost.batches);
    }
  });

  it("writes one row and its three index entries per event, no dedupe row (the rollup and buckets update in place)", async () => {
    const events = 1_000;
    const flushed = async (): Promise<TableWrites[]> => tableWrites(harness.database.pool, "generations");
    const inserted = async () =>
      (await flushed()).find((table) => table.table === "generations")?.inserted ?? 0;
    await expect.poll(inserted, { timeout: 30_000, interval: 500 }).toBe(await recorded());
    const before = await flushed();
    await consume(events);
    const target = await recorded();
    await expect.poll(inserted, { timeout: 30_000, interval: 500 }).toBe(target);
    // Health and rollup updates flush with the same transactions; give the last ones a moment.
    await new Promise((resolve) => setTimeout(resolve, 12_000));
    const after = await flushed();
    const delta = after.map((table) => {
      const old = before.find((row) => row.table === table.table);
      return {
        ...table,
        inserted: table.inserted - (old?.inserted ?? 0),
        updated: table.updated - (old?.updated ?? 0),
        hotUpdated: table.hotUpdated - (old?.hotUpdated ?? 0),
        deleted: table.deleted - (old?.deleted ?? 0),
      };
    });
    const { rows, indexEntries } = writesOf(delta);
    console.info(
      `per event over ${events}: ${(rows / events).toFixed(3)} rows, ${(indexEntries / events).toFixed(3)} index entries`,
    );
    for (const table of delta) if (table.inserted + table.updated > 0) console.info(JSON.stringify(table));
    // The record (one row, three indexes: the primary key and the two listings); the rollup and the
    // health buckets are updated in place per batch (HOT: no index entry), a new day's or minute's
    // bucket is the only other insert.
    expect(delta.find((table) => table.table === "generations")?.inserted).toBe(events);
    expect(rows / events).toBeLessThanOrEqual(1.1);
    expect(indexEntries / events).toBeLessThan(3.2);
  }, 90_000);
});
