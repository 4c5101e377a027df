import { randomUUID } from "node:crypto";
import { type AccountLedgerEntry, type LedgerEntryUpdate, MemoryAdmissionStore } from "@gw/admission-store";
import {
  type ConsumedMessage,
  type EncodedEvent,
  type EventSubscriber,
  encodeEvent,
  encodeUsageRecorded,
  KEY_CHANGED_V1,
  type SubscribeOptions,
  USAGE_RECORDED_V1,
  type UsageRecorded,
  usageRecorded,
} from "@gw/events";
import { catalogueCost, exampleUsageFacts } from "@gw/events/testing";
import { memoryLogger, silentLogger } from "@gw/logger";
import { DEFAULT_CHARGE_POLICY } from "@gw/money";
import { describeWith } from "@gw/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createBillingTestDatabase, type TestDatabase } from "../test/database.js";
import {
  PoisonMessageError,
  subscribeUsage,
  USAGE_CONSUMER_GROUP,
  type UsageConsumerDeps,
  usageBatchHandler,
  usageHandler,
} from "./usage.js";

/**
 * The usage handlers called directly (no bus in between) on a real database: what each field of a
 * usage event becomes in the ledger row and in the hot view's update. The bus-level behaviour
 * (redelivery, dead letters, Kafka) is usage-consumer.suite.ts's.
 */

/** Billing's in-memory admission store that also remembers every ledger entry applied to it. */
class RecordingStore extends MemoryAdmissionStore {
  readonly applied: { accountId: string; entry: LedgerEntryUpdate }[] = [];
  override async applyLedgerEntry(accountId: string, entry: LedgerEntryUpdate) {
    this.applied.push({ accountId, entry });
    return super.applyLedgerEntry(accountId, entry);
  }
}

/** Counts the store calls the handler makes (each is one Redis round trip with RedisAdmissionStore). */
class BatchCountingStore extends RecordingStore {
  readonly batches: number[] = [];
  override async applyLedgerEntries(entries: readonly AccountLedgerEntry[]) {
    this.batches.push(entries.length);
    return super.applyLedgerEntries(entries);
  }
}

/** A store whose Redis is down: every apply fails. */
class UnreachableStore extends MemoryAdmissionStore {
  override async applyLedgerEntry(): Promise<never> {
    throw new Error("connect ECONNREFUSED 127.0.0.1:6379");
  }
}

let test: TestDatabase;

const newAccount = (): string => `acct_${randomUUID()}`;

function message(event: EncodedEvent, offset = 0): ConsumedMessage {
  return {
    topic: "usage",
    key: event.key,
    value: event.value,
    headers: event.headers,
    partition: 0,
    offset: `${offset}`,
  };
}

/** The event the edge sends for a request of `account` (the edge's own encoder). */
function usageEvent(
  account: string,
  overrides: Parameters<typeof exampleUsageFacts>[0] = {},
  leaseId = "",
  policy = DEFAULT_CHARGE_POLICY,
) {
  const facts = exampleUsageFacts({ generationId: `gen-${randomUUID()}`, accountId: account, ...overrides });
  return { facts, event: encodeUsageRecorded(facts, policy, leaseId) };
}

/** A usage event with a payload the encoder would not build (for the consumer's own checks). */
function rawUsageEvent(
  account: string,
  payload: Partial<UsageRecorded>,
  meta: { eventId?: string; occurredAt?: Date } = {},
): EncodedEvent {
  const base = usageRecorded(exampleUsageFacts({ accountId: account }), DEFAULT_CHARGE_POLICY);
  return encodeEvent(USAGE_RECORDED_V1, { ...base, ...payload }, { accountId: account, ...meta });
}

function depsWith(store = new RecordingStore()): UsageConsumerDeps & { store: RecordingStore } {
  return { db: test.database.db, store, logger: silentLogger() };
}

const rowsOf = (account: string) =>
  test.database.db
    .selectFrom("ledger_entries")
    .selectAll()
    .where("account_id", "=", account)
    .orderBy("id")
    .execute();

describeWith(["postgres"], "usage handler: an event's fields in the ledger and the hot view", () => {
  beforeAll(async () => {
    test = await createBillingTestDatabase();
  });

  afterAll(async () => {
    await test.drop();
  });

  it("writes each event of a batch as one usage debit with its key, model and time", async () => {
    const account = newAccount();
    const startedAt = Date.UTC(2026, 10, 20, 23, 59, 30);
    const first = usageEvent(account, { cost: catalogueCost(1_000n, 1_500n), keyHash: "k1", startedAt });
    const second = usageEvent(account, { cost: catalogueCost(0n, 7n), keyHash: "k2", model: "x/y" });
    await usageBatchHandler(depsWith())([message(first.event), message(second.event, 1)]);

    const rows = await rowsOf(account);
    expect(
      rows.map((row) => [row.kind, row.event_id, row.amount, row.key_hash, row.model, row.is_byok]),
    ).toEqual([
      ["usage", first.facts.generationId, "-0.000000002500", "k1", first.facts.model, false],
      ["usage", second.facts.generationId, "-0.000000000007", "k2", "x/y", false],
    ]);
    // The request's own time, not the time of ingestion (a window that closed at midnight keeps it).
    expect(rows[0]?.created_at.getTime()).toBe(startedAt);
    expect(rows.map((row) => row.byok_cost)).toEqual(["0.000000000000", "0.000000000000"]);
  });

  it("applies each written entry to the hot view: its id, the debit, the generation it settles, the key's window", async () => {
    const account = newAccount();
    const deps = depsWith();
    const { facts, event } = usageEvent(account, { cost: catalogueCost(40n, 2n), keyHash: "k1" });
    await usageBatchHandler(deps)([message(event)]);

    const [row] = await rowsOf(account);
    expect(deps.store.applied).toEqual([
      {
        accountId: account,
        entry: {
          entryId: row?.id,
          amountPico: -42n,
          pendingRef: facts.generationId,
          keyHash: "k1",
          createdAtMs: facts.startedAt,
          byokPico: 0n,
        },
      },
    ]);
  });

  it("names the budget lease the request ran under, and no lease when it had none", async () => {
    const account = newAccount();
    const deps = depsWith();
    const leased = usageEvent(account, {}, "lease-7");
    const unleased = usageEvent(account);
    await usageBatchHandler(deps)([message(leased.event), message(unleased.event, 1)]);

    const byRef = new Map(deps.store.applied.map(({ entry }) => [entry.pendingRef, entry]));
    expect(byRef.get(leased.facts.generationId)?.leaseRef).toBe("lease-7");
    expect(byRef.get(unleased.facts.generationId)).not.toHaveProperty("leaseRef");
  });

  it("leaves key windows alone for a request without a key", async () => {
    const account = newAccount();
    const deps = depsWith();
    await usageBatchHandler(deps)([message(usageEvent(account, { keyHash: "" }).event)]);

    const entry = deps.store.applied[0]?.entry;
    expect(entry).toBeDefined();
    expect(entry).not.toHaveProperty("keyHash");
    expect(entry).not.toHaveProperty("createdAtMs");
    expect(entry).not.toHaveProperty("byokPico");
  });

  it("records a BYOK request's upstream cost apart from the fee it is charged", async () => {
    const account = newAccount();
    const deps = depsWith();
    // A 5 % fee on the 1,020 pico the provider charged the caller's own key.
    const cost = catalogueCost(300n, 700n, 20n);
    const { event } = usageEvent(account, { isByok: true, cost }, "", { byokFeePercent: 5 });
    await usageBatchHandler(deps)([message(event)]);

    const [row] = await rowsOf(account);
    expect(row?.is_byok).toBe(true);
    // The upstream prompt (with the per-request price) and completion cost, as paid on the caller's key.
    expect(row?.byok_cost).toBe("0.000000001020");
    expect(row?.amount).toBe("-0.000000000051");
    expect(deps.store.applied[0]?.entry.byokPico).toBe(1_020n);
  });

  it("records no upstream cost for a BYOK event whose upstream cost is negative", async () => {
    const account = newAccount();
    const event = rawUsageEvent(account, {
      isByok: true,
      upstreamPromptCostPico: -5n,
      upstreamCompletionCostPico: 2n,
    });
    await usageBatchHandler(depsWith())([message(event)]);
    expect((await rowsOf(account)).map((row) => row.byok_cost)).toEqual(["0.000000000000"]);
  });

  it("counts no upstream cost for an event that is not BYOK", async () => {
    const account = newAccount();
    const event = rawUsageEvent(account, {
      isByok: false,
      upstreamPromptCostPico: 5n,
      upstreamCompletionCostPico: 2n,
    });
    await usageBatchHandler(depsWith())([message(event)]);
    expect((await rowsOf(account)).map((row) => row.byok_cost)).toEqual(["0.000000000000"]);
  });

  it("dates an event without its request time by when it occurred", async () => {
    const account = newAccount();
    const occurredAt = new Date(Date.UTC(2026, 0, 2, 3, 4, 5));
    const event = rawUsageEvent(account, { createdAt: undefined }, { occurredAt });
    await usageBatchHandler(depsWith())([message(event)]);
    expect((await rowsOf(account))[0]?.created_at.getTime()).toBe(occurredAt.getTime());
  });

  it("settles the event's own id when the event names no generation", async () => {
    const account = newAccount();
    const deps = depsWith();
    const event = rawUsageEvent(account, { generationId: "" }, { eventId: `evt-${randomUUID()}` });
    await usageBatchHandler(deps)([message(event)]);
    expect(deps.store.applied[0]?.entry.pendingRef).toBe(event.envelope.eventId);
  });

  it("writes an event delivered twice in one batch once and applies it once", async () => {
    const account = newAccount();
    const deps = depsWith();
    const { event } = usageEvent(account, { cost: catalogueCost(0n, 9n) });
    await usageBatchHandler(deps)([message(event), message(event, 1)]);
    expect((await rowsOf(account)).map((row) => row.amount)).toEqual(["-0.000000000009"]);
    expect(deps.store.applied).toHaveLength(1);
  });

  it("applies a redelivered event again with the entry the first delivery wrote (the view counts it once)", async () => {
    const account = newAccount();
    const deps = depsWith();
    const { event } = usageEvent(account, { cost: catalogueCost(0n, 9n) });
    await deps.store.load(account, { balancePico: 100n, seq: 0n });
    await usageBatchHandler(deps)([message(event)]);
    await usageBatchHandler(deps)([message(event, 1)]);

    const rows = await rowsOf(account);
    expect(rows).toHaveLength(1);
    expect(deps.store.applied.map(({ entry }) => entry.entryId)).toEqual([rows[0]?.id, rows[0]?.id]);
    expect((await deps.store.view(account))?.balancePico).toBe(91n);
  });

  it("keeps the first copy of an event id that a batch carries twice, in the ledger and the view alike", async () => {
    const account = newAccount();
    const deps = depsWith();
    const facts = exampleUsageFacts({ generationId: `gen-${randomUUID()}`, accountId: account });
    const first = encodeUsageRecorded(facts, DEFAULT_CHARGE_POLICY, "lease-first");
    const second = encodeUsageRecorded(facts, DEFAULT_CHARGE_POLICY, "lease-second");
    await usageBatchHandler(deps)([message(first), message(second, 1)]);
    expect(deps.store.applied.map(({ entry }) => entry.leaseRef)).toEqual(["lease-first"]);
  });

  it("records a zero-cost event (a free model's request still counts)", async () => {
    const account = newAccount();
    const { facts, event } = usageEvent(account, { cost: catalogueCost(0n, 0n) });
    await usageBatchHandler(depsWith())([message(event)]);
    expect((await rowsOf(account)).map((row) => [row.event_id, row.amount])).toEqual([
      [facts.generationId, "0.000000000000"],
    ]);
  });

  it("handles one message at a time the same way", async () => {
    const account = newAccount();
    const deps = depsWith();
    const { facts, event } = usageEvent(account, { cost: catalogueCost(0n, 3n) });
    await usageHandler(deps)(message(event));
    expect((await rowsOf(account)).map((row) => [row.event_id, row.amount])).toEqual([
      [facts.generationId, "-0.000000000003"],
    ]);
    expect(deps.store.applied).toHaveLength(1);
  });

  it("skips other event types on the topic, writing and applying nothing, and says so at debug", async () => {
    const account = newAccount();
    const { logger, lines } = memoryLogger("debug");
    const store = new RecordingStore();
    const keyChange = encodeEvent(
      KEY_CHANGED_V1,
      { keyHash: "k", accountId: account, change: "disabled" },
      { accountId: account },
    );
    await usageBatchHandler({ db: test.database.db, store, logger })([message(keyChange)]);

    expect(await rowsOf(account)).toEqual([]);
    expect(store.applied).toEqual([]);
    const skipped = lines().map(
      (line) => JSON.parse(line) as { msg: string; eventType?: string; level: number },
    );
    expect(skipped).toContainEqual(
      expect.objectContaining({
        msg: "usage consumer skips another event type",
        eventType: "key.changed",
        level: 20,
      }),
    );
  });

  it("writes the usage events of a batch that also carries another event type", async () => {
    const account = newAccount();
    const keyChange = encodeEvent(
      KEY_CHANGED_V1,
      { keyHash: "k", accountId: account, change: "updated" },
      { accountId: account },
    );
    const { facts, event } = usageEvent(account);
    await usageBatchHandler(depsWith())([message(keyChange), message(event, 1)]);
    expect((await rowsOf(account)).map((row) => row.event_id)).toEqual([facts.generationId]);
  });

  it.each([
    [
      "without an event id",
      (account: string) => rawUsageEvent(account, {}, { eventId: "" }),
      "usage event without event_id",
    ],
    [
      "without an account",
      () =>
        encodeEvent(USAGE_RECORDED_V1, usageRecorded(exampleUsageFacts(), DEFAULT_CHARGE_POLICY), {
          accountId: "",
        }),
      "usage event without account_id",
    ],
    [
      "whose payload names another account",
      (account: string) => rawUsageEvent(account, { accountId: `${account}-other` }),
      "usage event account_id differs from its envelope's",
    ],
    [
      "with a negative cost",
      (account: string) => rawUsageEvent(account, { costPico: -1n }),
      "usage event with a negative cost",
    ],
  ])("refuses an event %s as poison, and writes nothing of its batch", async (_case, build, reason) => {
    const account = newAccount();
    const deps = depsWith();
    const good = usageEvent(account);
    const handling = usageBatchHandler(deps)([message(good.event), message(build(account), 1)]);
    await expect(handling).rejects.toThrow(PoisonMessageError);
    // Its name tells a poison message from a transient failure wherever the error is logged.
    await expect(handling).rejects.toMatchObject({ name: "PoisonMessageError" });
    await expect(handling).rejects.toThrow(reason);
    expect(await rowsOf(account)).toEqual([]);
    expect(deps.store.applied).toEqual([]);
  });

  it("accepts an event whose payload leaves the account to the envelope", async () => {
    const account = newAccount();
    await usageBatchHandler(depsWith())([message(rawUsageEvent(account, { accountId: "" }))]);
    expect(await rowsOf(account)).toHaveLength(1);
  });

  it("keeps usage recorded when the hot view cannot be reached, and warns with the event", async () => {
    const account = newAccount();
    const { logger, lines } = memoryLogger("warn");
    const { facts, event } = usageEvent(account);
    await usageBatchHandler({ db: test.database.db, store: new UnreachableStore(), logger })([
      message(event),
    ]);

    expect((await rowsOf(account)).map((row) => row.event_id)).toEqual([facts.generationId]);
    const warned = lines().map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(warned).toContainEqual(
      expect.objectContaining({
        msg: "usage recorded but not applied to the hot view",
        accountId: account,
        eventId: facts.generationId,
        level: 40,
      }),
    );
  });

  it("applies a batch's entries of several accounts to the hot view in one store call", async () => {
    const store = new BatchCountingStore();
    const accounts = [newAccount(), newAccount(), newAccount()];
    const events = Array.from({ length: 9 }, (_, index) => usageEvent(accounts[index % 3] as string).event);
    await usageBatchHandler({ ...depsWith(), store })(events.map((event, offset) => message(event, offset)));
    expect(store.batches).toEqual([9]);
    expect(store.applied).toHaveLength(9);
  });

  it("reports an entry the store would refuse on its own and applies the rest of its batch", async () => {
    const account = newAccount();
    const { logger, lines } = memoryLogger("warn");
    const store = new BatchCountingStore();
    // A generation id longer than a hold id may be: recorded in the ledger, refused by the view.
    const long = usageEvent(account, { generationId: `gen-${"x".repeat(300)}` });
    const fine = usageEvent(account);
    await usageBatchHandler({ db: test.database.db, store, logger })([
      message(long.event),
      message(fine.event, 1),
    ]);
    expect((await rowsOf(account)).map((row) => row.event_id)).toEqual([
      long.facts.generationId,
      fine.facts.generationId,
    ]);
    expect(store.applied.map(({ entry }) => entry.pendingRef)).toEqual([fine.facts.generationId]);
    const warned = lines().map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(warned).toContainEqual(
      expect.objectContaining({
        msg: "usage recorded but not applied to the hot view",
        eventId: long.facts.generationId,
      }),
    );
  });

  it("subscribes billing's consumer group to the topic with the batch handler", async () => {
    const subscriptions: SubscribeOptions[] = [];
    const subscriber: EventSubscriber = {
      subscribe: async (options) => {
        subscriptions.push(options);
        return { stop: async () => {} };
      },
    };
    const deps = depsWith();
    await subscribeUsage(subscriber, "gateway.usage.v1", deps);
    expect(subscriptions).toHaveLength(1);
    expect(subscriptions[0]).toMatchObject({ topic: "gateway.usage.v1", groupId: USAGE_CONSUMER_GROUP });
    expect(USAGE_CONSUMER_GROUP).toBe("billing");
    expect(subscriptions[0]?.handler).toBeUndefined();

    const account = newAccount();
    const { facts, event } = usageEvent(account);
    await subscriptions[0]?.batchHandler?.([message(event)]);
    expect((await rowsOf(account)).map((row) => row.event_id)).toEqual([facts.generationId]);
  });
});
