import { describeWith, type MigratedTestDatabase, migratedTestDatabase } from "@gw/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { migrations, SCHEMA } from "../db/index.js";
import type { GenerationsTables } from "../db/schema.js";
import { rowFromUsage } from "../records/usage-row.js";
import { usageEvent } from "../test/usage-events.js";
import { insertGeneration, insertGenerations } from "./generations.js";

describeWith(["postgres"], "generation batches", () => {
  let test: MigratedTestDatabase<GenerationsTables>;

  beforeAll(async () => {
    test = await migratedTestDatabase<GenerationsTables>(SCHEMA, migrations);
  });

  afterAll(async () => {
    await test?.drop();
  });

  const row = (accountId: string) => {
    const usage = usageEvent({ accountId });
    const envelope = {
      eventId: usage.generationId,
      eventType: "usage.recorded",
      eventVersion: 1,
      accountId,
      payload: Buffer.alloc(0),
    };
    return rowFromUsage(envelope, usage);
  };

  it("inserts a batch in one statement and skips the rows an earlier delivery stored", async () => {
    const stored = row("acct_batch");
    expect(await insertGeneration(test.database.db, stored)).toBe(true);
    const first = row("acct_batch");
    const second = row("acct_batch");
    expect(await insertGenerations(test.database.db, [first, stored, second])).toBe(2);
    const ids = await test.database.db
      .selectFrom("generations")
      .select("id")
      .where("account_id", "=", "acct_batch")
      .execute();
    expect(ids.map((found) => found.id).sort()).toEqual([stored.id, first.id, second.id].sort());
    expect(await insertGenerations(test.database.db, [])).toBe(0);
  });
});
