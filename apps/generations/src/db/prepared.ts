import type { Database } from "@gw/db";
import { arrayLiteral } from "./array-literal.js";

/** The app's pg pool (Database.pool): named statements go through it, Kysely cannot name one. */
export type Pool = Database<unknown>["pool"];

/**
 * A statement whose text never changes, so each connection parses and plans it once (pg prepares a named
 * statement on first use per connection and then only binds and executes it).
 */
export interface PreparedStatement {
  name: string;
  text: string;
}

export async function runPrepared<Row extends Record<string, unknown>>(
  pool: Pool,
  statement: PreparedStatement,
  values: readonly unknown[],
): Promise<Row[]> {
  const result = await pool.query<Row>({ name: statement.name, text: statement.text, values: [...values] });
  return result.rows;
}

/** One column of an `unnest(…)` row source: its SQL type and how an item gives its value. */
export interface UnnestColumn<Item> {
  name: string;
  /** The element type (`text`, `integer`, `timestamptz`, …): the parameter is cast to an array of it. */
  type: string;
  value(item: Item): unknown;
}

/**
 * `unnest($n::type[], …) as alias(columns)`: a batch of rows as one parameter per column, so the
 * statement's text is the same whatever the batch size (multi-row VALUES would change it each time).
 */
export function unnestFrom<Item>(
  columns: readonly UnnestColumn<Item>[],
  first: number,
  alias: string,
): string {
  const parameters = columns.map((column, index) => `$${first + index}::${column.type}[]`).join(", ");
  return `unnest(${parameters}) as ${alias}(${columns.map((column) => column.name).join(", ")})`;
}

/**
 * The parameters of unnestFrom: one array literal per column, in the columns' order (built by
 * arrayLiteral, not by pg: see there why).
 */
export function unnestValues<Item>(columns: readonly UnnestColumn<Item>[], items: readonly Item[]): string[] {
  return columns.map((column) => arrayLiteral(items.map((item) => column.value(item))));
}
