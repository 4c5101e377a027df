import { connectDatabase, type Database } from "@gw/db";
import { createTestDatabase, describeWith, type TestDatabase } from "@gw/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { arrayLiteral } from "./array-literal.js";

// What PostgreSQL reads back from the literal is what matters: every element comes back itself.
describeWith(["postgres"], "arrayLiteral read by PostgreSQL", () => {
  let database: TestDatabase;
  let connection: Database<unknown>;

  beforeAll(async () => {
    database = await createTestDatabase({ prefix: "array_literal" });
    connection = connectDatabase({ url: database.url, schema: "public" });
  });

  afterAll(async () => {
    await connection?.close();
    await database?.drop();
  });

  const readBack = async (type: string, values: readonly unknown[]) => {
    const result = await connection.pool.query({
      text: `select array_agg(v::text order by n) as v from unnest($1::${type}[]) with ordinality as t(v, n)`,
      values: [arrayLiteral(values)],
    });
    return result.rows[0]?.v as (string | null)[];
  };

  it("gives back every text element unchanged: quotes, backslashes, braces, NULL, empty, unicode", async () => {
    const texts = [
      'say "hi"',
      "C:\\dir\\",
      "{a,b}",
      "NULL",
      "",
      " x ",
      "é 漢 🎉",
      '\\"',
      "line\nbreak",
      null,
    ];
    expect(await readBack("text", texts)).toEqual(texts);
  });

  it("reads integers, booleans, numerics and instants as the values given", async () => {
    expect(await readBack("integer", [0, -7, 2147483647, null])).toEqual(["0", "-7", "2147483647", null]);
    expect(await readBack("boolean", [true, false, null])).toEqual(["true", "false", null]);
    expect(await readBack("numeric", ["0.000000123456", "12.5", null])).toEqual([
      "0.000000123456",
      "12.5",
      null,
    ]);
    await connection.pool.query("set time zone 'UTC'");
    expect(
      await readBack("timestamptz", ["2026-11-28T14:05:06.007Z", new Date(Date.UTC(2026, 0, 1))]),
    ).toEqual(["2026-11-28 14:05:06.007+00", "2026-01-01 00:00:00+00"]);
  });

  it("reads JSON strings as jsonb, escapes and all", async () => {
    const attempts = JSON.stringify([{ provider: 'a"b', error: "back\\slash", n: 1 }]);
    const [read] = await readBack("jsonb", [attempts]);
    expect(JSON.parse(read ?? "null")).toEqual(JSON.parse(attempts));
  });
});
