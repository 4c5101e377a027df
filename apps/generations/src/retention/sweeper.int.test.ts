import { generationIdFloor, newGenerationId } from "@gw/events";
import { silentLogger } from "@gw/logger";
import { describeWith, type MigratedTestDatabase, migratedTestDatabase } from "@gw/testing";
import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { migrations, SCHEMA } from "../db/index.js";
import type { GenerationsTables } from "../db/schema.js";
import { rowFromUsage } from "../records/usage-row.js";
import { insertGeneration } from "../repositories/generations.js";
import { usageEvent } from "../test/usage-events.js";
import { startRetention, sweepExpired } from "./sweeper.js";

describeWith(["postgres"], "generation retention", () => {
  const DAY_MS = 86_400_000;
  let test: MigratedTestDatabase<GenerationsTables>;

  beforeAll(async () => {
    test = await migratedTestDatabase<GenerationsTables>(SCHEMA, migrations);
  });

  afterAll(async () => {
    await test?.drop();
  });

  beforeEach(async () => {
    await test.database.db.deleteFrom("generations").execute();
  });

  async function insertAged(ageMs: number): Promise<string> {
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
    return usage.generationId;
  }

  async function remaining(): Promise<string[]> {
    const rows = await test.database.db
      .selectFrom("generations")
      .select("id")
      .orderBy("created_at")
      .execute();
    return rows.map((row) => row.id);
  }

  describe("generation retention", () => {
    it("deletes records older than the retention period and keeps the rest", async () => {
      const old = await insertAged(91 * DAY_MS);
      const edge = await insertAged(89 * DAY_MS);
      const fresh = await insertAged(60_000);
      const deleted = await sweepExpired(test.database.db, { retentionDays: 90, batchSize: 1000 });
      expect(deleted).toBe(1);
      expect(await remaining()).not.toContain(old);
      expect(await remaining()).toEqual([edge, fresh]);
    });

    it("finds expired records through the primary key, whatever the database's default collation", async () => {
      // No index on created_at (issue 27): the sweep's range is the id floor of the cutoff, which only
      // the primary key can serve, and only if ids compare byte-wise (the column is collate "C").
      const column = await sql<{ collation: string }>`
        select collation_name as collation from information_schema.columns
         where table_schema = current_schema() and table_name = 'generations' and column_name = 'id'`.execute(
        test.database.db,
      );
      expect(column.rows[0]?.collation).toBe("C");
      const plan = await test.database.db.connection().execute(async (connection) => {
        await sql`set enable_seqscan = off`.execute(connection);
        const explained = await sql<{ "QUERY PLAN": string }>`
          explain select id from generations where id < ${generationIdFloor(Date.now())} order by id limit 10`.execute(
          connection,
        );
        await sql`reset enable_seqscan`.execute(connection);
        return explained.rows.map((row) => row["QUERY PLAN"]).join("\n");
      });
      expect(plan).toMatch(/Index (Only )?Scan using generations_pkey/);
      expect(plan).not.toMatch(/Sort/);
    });

    it("works through a backlog in batches until nothing expired is left", async () => {
      for (let index = 0; index < 5; index++) await insertAged((100 + index) * DAY_MS);
      const keep = await insertAged(DAY_MS);
      const deleted = await sweepExpired(test.database.db, { retentionDays: 90, batchSize: 2 });
      expect(deleted).toBe(5);
      expect(await remaining()).toEqual([keep]);
    });

    it("runs a sweep as soon as the job starts, and stops cleanly", async () => {
      await insertAged(120 * DAY_MS);
      const keep = await insertAged(0);
      const job = startRetention(
        test.database.db,
        { retentionDays: 90, intervalMs: 60_000, batchSize: 1000 },
        silentLogger(),
      );
      await job.stop();
      expect(await remaining()).toEqual([keep]);
    });
  });
});
