import { newGenerationId } from "@gw/events";
import { describeWith, type MigratedTestDatabase, migratedTestDatabase } from "@gw/testing";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { migrations, SCHEMA } from "../db/index.js";
import type { GenerationsTables } from "../db/schema.js";
import { rowFromUsage } from "../records/usage-row.js";
import { deleteBatchStartedBefore, findGeneration, insertGeneration } from "../repositories/generations.js";
import { usageEvent } from "../test/usage-events.js";

const DAY_MS = 86_400_000;

describeWith(["postgres"], "generation retention and table locks", () => {
  let test: MigratedTestDatabase<GenerationsTables>;

  beforeAll(async () => {
    test = await migratedTestDatabase<GenerationsTables>(SCHEMA, migrations);
  });

  afterAll(async () => {
    await test?.drop();
  });

  async function insertAged(ageMs: number) {
    const createdAt = new Date(Date.now() - ageMs);
    const usage = usageEvent({ generationId: newGenerationId(createdAt.getTime()), createdAt });
    const envelope = {
      eventId: usage.generationId,
      eventType: "usage.recorded",
      eventVersion: 1,
      accountId: usage.accountId,
      payload: Buffer.alloc(0),
    };
    await insertGeneration(test.database.db, rowFromUsage(envelope, usage));
    return usage;
  }

  it("holds only row locks while a batch is open: ingest and lookups carry on beside it", async () => {
    for (let index = 0; index < 20; index++) await insertAged(100 * DAY_MS);
    const kept = await insertAged(DAY_MS);
    const cutoff = new Date(Date.now() - 90 * DAY_MS);
    const db = test.database.db;
    await db.transaction().execute(async (trx) => {
      expect(await deleteBatchStartedBefore(trx, cutoff, 10)).toBe(10);
      const locks = await sql<{ mode: string }>`
        select distinct mode from pg_locks
        where pid = pg_backend_pid() and relation = 'generations'::regclass`.execute(trx);
      // ROW EXCLUSIVE (what any insert takes) and ACCESS SHARE (the read): no SHARE or EXCLUSIVE lock.
      expect(locks.rows.map((row) => row.mode).sort()).toEqual(["AccessShareLock", "RowExclusiveLock"]);
      // Another connection, which would fail rather than wait if the table were locked against it.
      await db.connection().execute(async (other) => {
        await sql`set lock_timeout = '1s'`.execute(other);
        const usage = usageEvent({ generationId: newGenerationId() });
        const envelope = {
          eventId: usage.generationId,
          eventType: "usage.recorded",
          eventVersion: 1,
          accountId: usage.accountId,
          payload: Buffer.alloc(0),
        };
        expect(await insertGeneration(other, rowFromUsage(envelope, usage))).toBe(true);
        expect(await findGeneration(other, kept.generationId, kept.accountId)).toBeDefined();
        await sql`reset lock_timeout`.execute(other);
      });
    });
    expect(await deleteBatchStartedBefore(db, cutoff, 100)).toBe(10);
  });
});
