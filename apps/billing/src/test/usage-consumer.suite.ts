import { randomUUID } from "node:crypto";
import type { TopicConfig } from "@gw/config";
import {
  deadLetterTopic,
  type EventBus,
  encodeEvent,
  KEY_CHANGED_V1,
  USAGE_RECORDED_V1,
  UsageRecorded,
} from "@gw/events";
import { describeWith, type ServiceName } from "@gw/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { addCredits } from "../operator/credits.js";
import { ledgerSnapshot } from "../repositories/ledger-read.js";
import { insertUsageEntry, inTransaction } from "../repositories/ledger-write.js";
import { eventually } from "./eventually.js";
import { type Harness, startHarness, USD } from "./harness.js";

/**
 * The usage consumer's behaviour, parametrised by the event bus so the same suite runs on the
 * in-process bus and on Kafka.
 */
export function describeUsageConsumer(
  name: string,
  services: readonly ServiceName[],
  makeBus: (topics: TopicConfig) => Promise<EventBus>,
): void {
  describeWith(services, `usage consumer on ${name}`, () => {
    let harness: Harness;
    let bus: EventBus;

    beforeAll(async () => {
      harness = await startHarness({
        bus: async (topics) => {
          bus = await makeBus(topics);
          return bus;
        },
      });
    });

    afterAll(async () => {
      await harness.stop();
      await bus.close();
    });

    const entriesOf = (account: string) =>
      harness.db.database.db
        .selectFrom("ledger_entries")
        .selectAll()
        .where("account_id", "=", account)
        .orderBy("id")
        .execute();

    it("debits an event delivered twice exactly once, in the ledger and in the hot view", async () => {
      const account = `acct_${randomUUID()}`;
      await harness.store.load(account, { balancePico: 0n, seq: 0n });
      const eventId = harness.publishUsage({ accountId: account, keyHash: "k1", costPico: 2_500n });
      harness.publishUsage({ accountId: account, keyHash: "k1", costPico: 2_500n }, eventId);
      // A later event proves both copies were consumed before we look.
      const marker = harness.publishUsage({ accountId: account, keyHash: "k1", costPico: 1n });
      const rows = await eventually(async () => {
        const found = await entriesOf(account);
        expect(found.map((row) => row.event_id)).toContain(marker);
        return found;
      });
      expect(rows.filter((row) => row.event_id === eventId)).toHaveLength(1);
      expect(rows.map((row) => row.amount)).toEqual(["-0.000000002500", "-0.000000000001"]);
      expect((await harness.store.view(account))?.balancePico).toBe(-2_501n);
    });

    it("records a zero-cost event (free models still count as requests)", async () => {
      const account = `acct_${randomUUID()}`;
      const eventId = harness.publishUsage({
        accountId: account,
        model: "meta-llama/llama-3.3-70b-instruct:free",
      });
      const rows = await eventually(async () => {
        const found = await entriesOf(account);
        expect(found).toHaveLength(1);
        return found;
      });
      expect(rows[0]).toMatchObject({ event_id: eventId, amount: "0.000000000000", kind: "usage" });
    });

    it("stores key, model, BYOK flag and upstream BYOK cost, dated when the request happened", async () => {
      const account = `acct_${randomUUID()}`;
      const createdAt = new Date("2026-01-31T23:59:59.000Z");
      // As the edge sends a BYOK request at the default fee of 0: nothing charged, the price upstream.
      harness.publishUsage({
        accountId: account,
        keyHash: "a".repeat(64),
        model: "anthropic/claude-sonnet-4",
        isByok: true,
        costPico: 1_000n,
        promptCostPico: 300n,
        createdAt,
      });
      const [row] = await eventually(async () => {
        const found = await entriesOf(account);
        expect(found).toHaveLength(1);
        return found;
      });
      expect(row).toMatchObject({
        key_hash: "a".repeat(64),
        model: "anthropic/claude-sonnet-4",
        is_byok: true,
        amount: "0.000000000000",
        byok_cost: "0.000000001000",
        created_at: createdAt,
      });
    });

    it("debits a BYOK request only the fee, in the ledger and in the hot view", async () => {
      const account = `acct_${randomUUID()}`;
      await harness.store.load(account, { balancePico: 0n, seq: 0n });
      const eventId = harness.publishUsage(
        { accountId: account, keyHash: "k1", isByok: true, costPico: 2_000n },
        undefined,
        { byokFeePercent: 5 },
      );
      const [row] = await eventually(async () => {
        const found = await entriesOf(account);
        expect(found).toHaveLength(1);
        return found;
      });
      expect(row).toMatchObject({
        event_id: eventId,
        amount: "-0.000000000100",
        byok_cost: "0.000000002000",
      });
      await eventually(async () => expect((await harness.store.view(account))?.balancePico).toBe(-100n));
    });

    it("settle, then the usage event, leaves the view equal to a fresh reload from Postgres", async () => {
      const account = `acct_${randomUUID()}`;
      await addCredits(harness.db.database, { accountId: account, amountPico: USD, kind: "grant" });
      const holdId = `gen-${randomUUID()}`;
      const admitted = await harness.rpc.admit({
        holdId,
        accountId: account,
        keyHash: "k",
        modelId: "openai/gpt-4o",
        isFreeModel: false,
        worstCaseCostPico: USD / 2n,
      });
      expect(admitted.admitted).toBe(true);
      await harness.rpc.settle({ holdId, accountId: account, keyHash: "k", actualCostPico: 12_345n });
      expect(await harness.store.view(account)).toMatchObject({ heldPico: 0n, pendingPico: 12_345n });
      harness.publishUsage({ accountId: account, keyHash: "k", costPico: 12_345n }, holdId);
      await eventually(async () => expect((await harness.store.view(account))?.pendingPico).toBe(0n));
      const live = await harness.store.view(account);
      const fresh = harness.newRedisStore();
      await fresh.load(account, await ledgerSnapshot(harness.db.database.db, account));
      const reloaded = await fresh.view(account);
      expect(live?.balancePico).toBe(USD - 12_345n);
      expect(live?.availablePico).toBe(reloaded?.availablePico);
      expect(live?.balancePico).toBe(reloaded?.balancePico);
    });

    it("skips other event types on the topic", async () => {
      const account = `acct_${randomUUID()}`;
      const other = encodeEvent(
        KEY_CHANGED_V1,
        { keyHash: "x", accountId: account, change: "updated" },
        { accountId: account },
      );
      bus.publish(harness.topics.usage, other.key, other.value, other.headers);
      const marker = harness.publishUsage({ accountId: account, costPico: 1n });
      const rows = await eventually(async () => {
        const found = await entriesOf(account);
        expect(found.map((row) => row.event_id)).toContain(marker);
        return found;
      });
      expect(rows).toHaveLength(1);
    });

    it("dead-letters an event whose payload and envelope disagree on the account", async () => {
      const account = `acct_${randomUUID()}`;
      const dead: string[] = [];
      const dlq = await bus.subscribe({
        topic: deadLetterTopic(harness.topics.usage, "billing"),
        groupId: `dlq-reader-${randomUUID()}`,
        handler: async (message) => {
          dead.push(message.headers["x-error"] ?? "");
        },
      });
      const bad = encodeEvent(
        USAGE_RECORDED_V1,
        UsageRecorded.fromPartial({ accountId: "someone-else", costPico: 5n }),
        { accountId: account },
      );
      bus.publish(harness.topics.usage, bad.key, bad.value, bad.headers);
      await eventually(async () => expect(dead).toEqual([expect.stringMatching(/differs/)]));
      await dlq.stop();
      expect(await entriesOf(account)).toEqual([]);
    });

    it("dead-letters a bad event of a batch alone and debits the batch's other events", async () => {
      const account = `acct_${randomUUID()}`;
      const dead: string[] = [];
      const dlq = await bus.subscribe({
        topic: deadLetterTopic(harness.topics.usage, "billing"),
        groupId: `dlq-reader-${randomUUID()}`,
        handler: async (message) => {
          dead.push(message.headers["x-error"] ?? "");
        },
      });
      const before = harness.publishUsage({ accountId: account, costPico: 3n });
      const bad = encodeEvent(
        USAGE_RECORDED_V1,
        UsageRecorded.fromPartial({ accountId: "someone-else", costPico: 5n }),
        { accountId: account },
      );
      bus.publish(harness.topics.usage, bad.key, bad.value, bad.headers);
      const after = harness.publishUsage({ accountId: account, costPico: 4n });
      await eventually(async () => expect(dead).toEqual([expect.stringMatching(/differs/)]));
      const rows = await eventually(async () => {
        const found = await entriesOf(account);
        expect(found).toHaveLength(2);
        return found;
      });
      await dlq.stop();
      expect(rows.map((row) => row.event_id)).toEqual([before, after]);
    });

    it("applies an event an earlier delivery already wrote to the hot view, with that entry's id", async () => {
      const account = `acct_${randomUUID()}`;
      await harness.store.load(account, { balancePico: 0n, seq: 0n });
      const eventId = `gen-${randomUUID()}`;
      // Written by a delivery whose consumer died after the commit, before the view heard of it.
      const existing = await inTransaction(harness.db.database.db, (trx) =>
        insertUsageEntry(trx, {
          accountId: account,
          eventId,
          keyHash: "k1",
          model: "openai/gpt-4o",
          isByok: false,
          costPico: 700n,
          byokCostPico: 0n,
          createdAt: new Date(),
        }),
      );
      harness.publishUsage({ accountId: account, keyHash: "k1", costPico: 700n }, eventId);
      await eventually(async () => expect((await harness.store.view(account))?.balancePico).toBe(-700n));
      expect((await entriesOf(account)).map((row) => row.id)).toEqual([existing.id]);
      // Applied under its ledger id: a rebase on a snapshot that covers that id does not count it twice.
      await harness.store.load(account, await ledgerSnapshot(harness.db.database.db, account));
      expect((await harness.store.view(account))?.balancePico).toBe(-700n);
    });
  });
}
