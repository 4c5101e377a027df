import { describe, expect, it } from "vitest";
import { type TableCounters, tableWrites } from "./table-writes.js";

const table = (counters: Partial<TableCounters>): TableCounters => ({
  inserted: 0,
  updated: 0,
  hotUpdated: 0,
  deleted: 0,
  fullIndexes: 0,
  partialRows: {},
  ...counters,
});

describe("rows and index entries written per request", () => {
  it("counts an entry in every full index per inserted row and per non-HOT update", () => {
    const before = { "billing.ledger_entries": table({ inserted: 100, fullIndexes: 4 }) };
    const after = {
      "billing.ledger_entries": table({ inserted: 1100, updated: 300, hotUpdated: 100, fullIndexes: 4 }),
    };
    const writes = tableWrites(before, after, 1000);
    // 1,000 inserts + 300 updates = 1.3 rows; (1,000 + 200 cold updates) × 4 indexes = 4.8 entries.
    expect(writes?.rowsPerRequest).toBeCloseTo(1.3, 10);
    expect(writes?.indexEntriesPerRequest).toBeCloseTo(4.8, 10);
  });

  it("counts a partial index only for the rows its predicate holds for", () => {
    const before = { "billing.ledger_entries": table({ fullIndexes: 2, partialRows: { "billing.ref": 5 } }) };
    const after = {
      "billing.ledger_entries": table({ inserted: 1000, fullIndexes: 2, partialRows: { "billing.ref": 15 } }),
    };
    expect(tableWrites(before, after, 1000)?.indexEntriesPerRequest).toBeCloseTo(2.01, 10);
  });

  it("sums the tables, lists each written one, and counts deletes as rows", () => {
    const before = { "a.x": table({ fullIndexes: 1 }), "b.y": table({ fullIndexes: 3 }), "c.z": table({}) };
    const after = {
      "a.x": table({ inserted: 10, fullIndexes: 1 }),
      "b.y": table({ inserted: 10, deleted: 10, fullIndexes: 3 }),
      "c.z": table({}),
    };
    const writes = tableWrites(before, after, 10);
    expect(writes?.rowsPerRequest).toBe(3);
    expect(writes?.indexEntriesPerRequest).toBe(4);
    expect(Object.keys(writes?.byTable ?? {})).toEqual(["a.x", "b.y"]);
  });

  it("counts a table created during the scenario from zero, and nothing without requests", () => {
    const after = { "a.new": table({ inserted: 5, fullIndexes: 1 }) };
    expect(tableWrites({}, after, 5)?.indexEntriesPerRequest).toBe(1);
    expect(tableWrites({}, after, 0)).toBeUndefined();
  });
});
