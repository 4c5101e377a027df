import { migrateToLatest } from "@gw/db";
import { describeWith, type MigratedTestDatabase, migratedTestDatabase } from "@gw/testing";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { SCHEMA } from "../index.js";
import { migrations } from "./index.js";

const NEW = "20261128T083000_histograms_in_minutes";

/** Every migration before the one under test: the schema a running deployment has when it upgrades. */
const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < NEW));

describeWith(["postgres"], "migration: a minute's histograms move into its row", () => {
  let test: MigratedTestDatabase<unknown>;

  beforeAll(async () => {
    test = await migratedTestDatabase<unknown>(SCHEMA, before);
  });

  afterAll(async () => {
    await test?.drop();
  });

  it("carries the window's bucket counts over, dense from bucket 0, and drops the bucket table", async () => {
    const db = test.database.db;
    const minute = "2026-11-28T08:00:00.000Z";
    await sql`insert into endpoint_health_minutes (model, provider_id, minute, attempts, failures)
      values ('m/a', 'p', ${minute}, 5, 1), ('m/b', 'p', ${minute}, 2, 0)`.execute(db);
    await sql`insert into endpoint_health_histograms (model, provider_id, minute, metric, bucket, count)
      values ('m/a', 'p', ${minute}, 'latency', 0, 2), ('m/a', 'p', ${minute}, 'latency', 3, 3),
             ('m/a', 'p', ${minute}, 'throughput', 1, 4)`.execute(db);

    await migrateToLatest(db, SCHEMA, migrations);

    const rows = await sql<{ model: string; latency: number[]; throughput: number[]; attempts: number }>`
      select model, latency_counts as latency, throughput_counts as throughput, attempts
        from endpoint_health_minutes order by model`.execute(db);
    expect(rows.rows).toEqual([
      { model: "m/a", latency: [2, 0, 0, 3], throughput: [0, 4], attempts: 5 },
      { model: "m/b", latency: [], throughput: [], attempts: 2 },
    ]);
    const table = await sql<{ name: string | null }>`
      select to_regclass('endpoint_health_histograms')::text as name`.execute(db);
    expect(table.rows[0]?.name).toBeNull();
  });
});
