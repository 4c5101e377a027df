import { connectDatabase, type Database, migrateToLatest } from "@gw/db";
import type { ConsumedMessage } from "@gw/events";
import { describeEventBusContract } from "@gw/events/contract";
import { memoryLogger, silentLogger } from "@gw/logger";
import { registry } from "@gw/metrics";
import { createTestDatabase, describeWith, type TestDatabase, uniqueName } from "@gw/testing";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outboxMigrations } from "./migrations.js";
import { type OutboxBusOptions, OutboxEventBus } from "./outbox-bus.js";
import type { OutboxTables } from "./schema.js";
import { holdOutboxWriterLock } from "./writer-lock.js";

const text = (value: string) => new TextEncoder().encode(value);
const read = (message: ConsumedMessage) => new TextDecoder().decode(message.value);

describeWith(["postgres"], "OutboxEventBus on PostgreSQL", () => {
  let database: TestDatabase;
  const connections: Database<OutboxTables>[] = [];

  beforeAll(async () => {
    database = await createTestDatabase({ prefix: "outbox" });
  }, 60_000);

  afterAll(async () => {
    await Promise.all(connections.map((connection) => connection.close().catch(() => {})));
    await database?.drop();
  });

  /** A migrated outbox in a schema of its own (one per test, so tests never share rows). */
  async function outboxSchema(): Promise<string> {
    const schema = uniqueName("outbox", "_");
    const connection = connect(schema);
    await migrateToLatest(connection.db, schema, outboxMigrations);
    return schema;
  }

  const noSessionLoss = (error: Error): never => {
    throw error;
  };

  function connect(schema: string): Database<OutboxTables> {
    const connection = connectDatabase<OutboxTables>({ url: database.url, schema, maxConnections: 4 });
    connections.push(connection);
    return connection;
  }

  function busOn(schema: string, options: Partial<OutboxBusOptions> = {}) {
    const connection = connect(schema);
    const bus = new OutboxEventBus({
      db: connection.db,
      logger: silentLogger(),
      commitIntervalMs: 20,
      idlePollMs: 200,
      ...options,
    });
    return { bus, connection };
  }

  describeEventBusContract("OutboxEventBus", async () => {
    const schema = await outboxSchema();
    return {
      createBus: async () => busOn(schema).bus,
      createTopic: async (prefix) => uniqueName(prefix),
      groupId: (prefix) => uniqueName(prefix),
      timeoutMs: 10_000,
    };
  });

  const countOf = async (connection: Database<OutboxTables>, topic: string): Promise<number> => {
    const row = await connection.db
      .selectFrom("events")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("topic", "=", topic)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };

  const count = async (connection: Database<OutboxTables>): Promise<number> => {
    const row = await connection.db
      .selectFrom("events")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };

  /** Waits until the schema's events table is empty, on one connection (not a new pool per poll). */
  async function untilEmpty(schema: string, what: string): Promise<void> {
    const connection = connect(schema);
    await until(async () => (await count(connection)) === 0, what);
  }

  async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  describe("one reader per topic", () => {
    it("one read of the table serves every group of the topic, not one read per group per batch", async () => {
      const schema = await outboxSchema();
      const { bus, connection } = busOn(schema, { idlePollMs: 5_000 });
      let reads = 0;
      let inserts = 0;
      const counted = new WeakSet<object>();
      const countReads = (client: { query: (...args: unknown[]) => unknown }) => {
        if (counted.has(client)) return;
        counted.add(client);
        const query = client.query.bind(client);
        client.query = (...args: unknown[]) => {
          const statement = typeof args[0] === "string" ? args[0] : "";
          if (/^select .* from "events" where "topic" = \$1 and "id" > \$2/.test(statement)) reads++;
          if (statement.startsWith('insert into "events"')) inserts++;
          return query(...args);
        };
      };
      connection.pool.on("acquire", (client) => countReads(client as never));
      // Two batch groups (billing and generations in the embedded default) and a message group.
      const batches = new Map<string, number>();
      const seen = new Map<string, number>();
      for (const groupId of ["billing", "generations"])
        await bus.subscribe({
          topic: "usage",
          groupId,
          batchHandler: async (messages) => {
            batches.set(groupId, (batches.get(groupId) ?? 0) + 1);
            seen.set(groupId, (seen.get(groupId) ?? 0) + messages.length);
          },
        });
      await bus.subscribe({
        topic: "usage",
        groupId: "audit",
        handler: async () => {
          seen.set("audit", (seen.get("audit") ?? 0) + 1);
        },
      });
      const bursts = 10;
      for (let burst = 0; burst < bursts; burst++) {
        for (let index = 0; index < 50; index++)
          bus.publish("usage", `account-${index % 3}`, text(`e${index}`));
        await bus.persisted();
        const total = (burst + 1) * 50;
        await until(
          () => ["billing", "generations", "audit"].every((group) => seen.get(group) === total),
          `burst ${burst} in every group`,
        );
      }
      const handled = [...batches.values()].reduce((sum, n) => sum + n, 0);
      console.info(
        `outbox: ${reads} reads for ${inserts} inserts (${bursts} bursts); batch handler calls: ${handled}`,
      );
      // One read per committed insert is what the groups need together (each group reading for itself
      // costs one per group per batch, and more for a message group); the idle poll may add one.
      expect(inserts).toBeGreaterThan(0);
      expect(reads).toBeLessThanOrEqual(inserts + 2);
      await bus.close();
    });
  });

  describe("linger", () => {
    /** A batch group on a fresh outbox recording each batch's size. */
    async function lingering(options: { lingerMs?: number; maxBatchSize?: number }) {
      const { bus } = busOn(await outboxSchema(), { idlePollMs: 5_000 });
      const batches: number[] = [];
      await bus.subscribe({
        topic: "usage",
        groupId: "billing",
        ...options,
        batchHandler: async (messages) => {
          batches.push(messages.length);
        },
      });
      const total = () => batches.reduce((sum, size) => sum + size, 0);
      return { bus, batches, total };
    }

    it.each([
      { lingerMs: 400, least: 1, most: 2, first: 4 },
      { lingerMs: undefined, least: 6, most: 8, first: 1 },
    ])(
      "commits 50 ms apart reach a group with linger $lingerMs in $least to $most batches",
      async ({ lingerMs, least, most, first }) => {
        const { bus, batches, total } = await lingering(lingerMs === undefined ? {} : { lingerMs });
        for (let index = 0; index < 8; index++) {
          bus.publish("usage", "k", text(`e${index}`));
          await bus.persisted();
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        const published = Date.now();
        await until(() => total() === 8, "every event handled");
        // The linger bounds the wait: no later commit (and no idle poll, 5 s here) is needed to end it.
        expect(Date.now() - published).toBeLessThan(2_500);
        expect(batches.length).toBeGreaterThanOrEqual(least);
        expect(batches.length).toBeLessThanOrEqual(most);
        // The first batch gathers what was committed during its linger (the commits after its first row).
        expect(batches[0]).toBeGreaterThanOrEqual(first);
        await bus.close();
      },
    );

    it("a full batch goes at once, without waiting for the linger", async () => {
      const { bus, batches, total } = await lingering({ lingerMs: 60_000, maxBatchSize: 5 });
      const started = Date.now();
      for (let index = 0; index < 5; index++) bus.publish("usage", "k", text(`e${index}`));
      await bus.persisted();
      await until(() => total() === 5, "the full batch handled");
      expect(batches).toEqual([5]);
      expect(Date.now() - started).toBeLessThan(5_000);
      await bus.close();
    });
  });

  describe("durability", () => {
    it("persisted() resolves only once every event published before it is a committed row", async () => {
      const schema = await outboxSchema();
      const { bus } = busOn(schema);
      for (let index = 0; index < 50; index++)
        bus.publish("usage", `account-${index % 3}`, text(`e${index}`));
      expect(bus.backlog()).toBeGreaterThan(0);
      await bus.persisted();
      // Counted on another connection: committed, not just sent.
      expect(await count(connect(schema))).toBe(50);
      expect(bus.backlog()).toBe(0);
      await bus.close();
    });

    it("after a crash, a restarted group gets every event it had not applied, in order", async () => {
      const schema = await outboxSchema();
      const first = busOn(schema);
      const applied: string[] = [];
      await first.bus.subscribe({
        topic: "usage",
        groupId: "billing",
        handler: async (message) => {
          // The process dies while it handles e20: that handler never returns.
          if (read(message) === "e20") await new Promise(() => {});
          applied.push(read(message));
        },
      });
      for (let index = 0; index < 40; index++) first.bus.publish("usage", "account-1", text(`e${index}`));
      await first.bus.persisted();
      await until(() => applied.length >= 20, "the events before e20 applied");
      // Long enough for a position save (20 ms here) to have happened, so the restart can skip some.
      await new Promise((resolve) => setTimeout(resolve, 100));
      // The crash: the process's connections vanish mid-stream; nothing is closed in order.
      await first.connection.close();
      const appliedBeforeCrash = [...applied];

      const second = busOn(schema);
      const redelivered: string[] = [];
      await second.bus.subscribe({
        topic: "usage",
        groupId: "billing",
        handler: async (message) => {
          redelivered.push(read(message));
        },
      });
      await until(() => redelivered.includes("e39"), "the last event after the restart");
      const all = Array.from({ length: 40 }, (_, index) => `e${index}`);
      // At least once: the restart resumes at or before the first event not applied, never after.
      const resumedAt = all.indexOf(redelivered[0] as string);
      expect(appliedBeforeCrash).toEqual(all.slice(0, 20));
      expect(resumedAt).toBeGreaterThan(0);
      expect(resumedAt).toBeLessThanOrEqual(20);
      expect(redelivered).toEqual(all.slice(resumedAt));
      await second.bus.close();
    });

    it("close() returns within its timeout when the database is gone (nothing hangs a shutdown)", async () => {
      const schema = await outboxSchema();
      // Positions are not saved on their own here, so close() has one to save when the database is gone.
      const { bus, connection } = busOn(schema, { closeTimeoutMs: 300, commitIntervalMs: 60_000 });
      let applied = 0;
      await bus.subscribe({
        topic: "usage",
        groupId: "billing",
        handler: async () => {
          applied++;
        },
      });
      bus.publish("usage", "account-1", text("applied"));
      await until(() => applied === 1, "the first event applied");
      await connection.close();
      bus.publish("usage", "account-1", text("never written"));
      const started = Date.now();
      await bus.close();
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(bus.backlog()).toBe(1);
    });

    it("a group's saved position moves only after its handler resolved", async () => {
      const schema = await outboxSchema();
      const first = busOn(schema);
      let release: () => void = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      const subscription = await first.bus.subscribe({
        topic: "usage",
        groupId: "generations",
        handler: async () => {
          await gate;
        },
      });
      first.bus.publish("usage", "account-1", text("slow"));
      await first.bus.persisted();
      await new Promise((resolve) => setTimeout(resolve, 200));
      const saved = async () =>
        (
          await connect(schema)
            .db.selectFrom("group_offsets")
            .select("delivered_id")
            .where("group_id", "=", "generations")
            .executeTakeFirstOrThrow()
        ).delivered_id;
      expect(await saved()).toBe(0n);
      release();
      await subscription.stop();
      expect(await saved()).toBeGreaterThan(0n);
      await first.bus.close();
    });
  });

  describe("one writer per database", () => {
    it("refuses a second gateway's outbox on the same database until the first lets go", async () => {
      const schema = uniqueName("outbox", "_");
      const first = connect(schema);
      const second = connect(schema);
      const release = await holdOutboxWriterLock(first.pool, schema, noSessionLoss);
      await expect(holdOutboxWriterLock(second.pool, schema, noSessionLoss, 300)).rejects.toThrow(
        /another gateway process already uses the event outbox/,
      );
      await release();
      const again = await holdOutboxWriterLock(second.pool, schema, noSessionLoss);
      await again();
    });

    it("reports the lock's session ending under it (PostgreSQL stopping first) instead of crashing", async () => {
      const schema = uniqueName("outbox", "_");
      const holder = connect(schema);
      const lost: Error[] = [];
      const release = await holdOutboxWriterLock(holder.pool, schema, (error) => lost.push(error));
      // What a server shutdown does to the session: terminated by an administrator command.
      const terminator = connect(schema);
      // A one-key advisory lock shows its key's low 32 bits as objid (objsubid 1).
      await sql`select pg_terminate_backend(pid) from pg_locks
        where locktype = 'advisory' and objsubid = 1 and granted
          and objid = (hashtext(${`model-gateway outbox ${schema}`})::bigint & 4294967295)::oid`.execute(
        terminator.db,
      );
      await expect
        .poll(() => lost.map((error) => error.message), { timeout: 10_000 })
        .toContainEqual(expect.stringMatching(/terminating connection due to administrator command/));
      await release();
      // The lock went with the session: another gateway takes it at once.
      const next = await holdOutboxWriterLock(terminator.pool, schema, noSessionLoss, 0);
      await next();
    });
  });

  describe("bounded table", () => {
    it("prunes what every durable group applied once it is older than the retention", async () => {
      const schema = await outboxSchema();
      const { bus } = busOn(schema, { pruneIntervalMs: 50, retentionMs: 0 });
      const seen = { a: 0, b: 0 };
      for (const group of ["a", "b"] as const)
        await bus.subscribe({
          topic: "usage",
          groupId: group,
          handler: async () => {
            seen[group]++;
          },
        });
      for (let index = 0; index < 30; index++) bus.publish("usage", "account-1", text(`e${index}`));
      await until(() => seen.a >= 30 && seen.b >= 30, "both groups to apply everything");
      await untilEmpty(schema, "the applied rows to be pruned");
      await bus.close();
    });

    it("keeps rows a durable group has not applied, even while another group is done with them", async () => {
      const schema = await outboxSchema();
      const { bus } = busOn(schema, { pruneIntervalMs: 50, retentionMs: 0 });
      let fast = 0;
      await bus.subscribe({
        topic: "usage",
        groupId: "fast",
        handler: async () => {
          fast++;
        },
      });
      const stalled = await bus.subscribe({
        topic: "usage",
        groupId: "stalled",
        maxAttempts: 1_000,
        handler: async () => {
          throw new Error("not yet");
        },
      });
      for (let index = 0; index < 10; index++) bus.publish("usage", "account-1", text(`e${index}`));
      await until(() => fast >= 10, "the fast group");
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await count(connect(schema))).toBe(10);
      await stalled.stop();
      await bus.close();
    });

    it("a cache group (not from the beginning) starts at the end and holds nothing back", async () => {
      const schema = await outboxSchema();
      // A cache group holds nothing back, so the retention is all that keeps an event for it: with none,
      // a prune right after the durable group applied "after" could delete it before the cache group's
      // read (the test timed out now and then). One second is plenty, and pruning still ends at zero.
      const { bus } = busOn(schema, { pruneIntervalMs: 50, retentionMs: 1000 });
      bus.publish("key-changes", "account-1", text("before"));
      let durableSeen = 0;
      await bus.subscribe({
        topic: "key-changes",
        groupId: "durable",
        handler: async () => {
          durableSeen++;
        },
      });
      await bus.persisted();
      const cache: string[] = [];
      await bus.subscribe({
        topic: "key-changes",
        groupId: "cache-1",
        fromBeginning: false,
        handler: async (message) => {
          cache.push(read(message));
        },
      });
      bus.publish("key-changes", "account-1", text("after"));
      await until(() => cache.includes("after") && durableSeen >= 2, "the new event in both groups");
      expect(cache).toEqual(["after"]);
      await untilEmpty(schema, "pruning past the cache group");
      await bus.close();
    });

    it("a removed group (not seen for the stale period) stops holding back pruning, with a log line; a live one that is behind keeps holding", async () => {
      const schema = await outboxSchema();
      const { logger, lines } = memoryLogger("warn");
      // A consumer that used to read "payments" and was removed: its saved position holds row 0.
      const old = busOn(schema, { pruneIntervalMs: 50, retentionMs: 0 });
      const removed = await old.bus.subscribe({
        topic: "payments",
        groupId: "removed",
        handler: async () => {},
      });
      await removed.stop();
      await old.bus.close();
      const { bus, connection } = busOn(schema, {
        pruneIntervalMs: 50,
        retentionMs: 0,
        staleGroupMs: 1_000,
        logger,
      });
      let current = 0;
      await bus.subscribe({
        topic: "payments",
        groupId: "current",
        handler: async () => {
          current++;
        },
      });
      // A live group on another topic that cannot apply anything: behind, yet seen, so it holds.
      const stalled = await bus.subscribe({
        topic: "usage",
        groupId: "stalled",
        maxAttempts: 1_000,
        handler: async () => {
          throw new Error("not yet");
        },
      });
      for (let index = 0; index < 10; index++) {
        bus.publish("payments", "account-1", text(`p${index}`));
        bus.publish("usage", "account-1", text(`u${index}`));
      }
      await until(() => current >= 10, "the current group");
      // Within the stale period the removed group still holds every payments row.
      expect(await countOf(connection, "payments")).toBe(10);
      await until(
        async () => (await countOf(connection, "payments")) === 0,
        "the removed group to stop holding",
      );
      const named = lines().filter((line) => line.includes("no longer holds back pruning"));
      expect(named).toHaveLength(1);
      expect(named[0]).toContain('"group":"removed"');
      const gauge = await registry.getSingleMetricAsString("gw_outbox_stale_groups");
      expect(gauge).toContain('gw_outbox_stale_groups{topic="payments",group="removed"} 1');
      expect(gauge).not.toContain('group="stalled"');
      expect(await countOf(connection, "usage")).toBe(10);
      await stalled.stop();
      await bus.close();
    });
  });
});
