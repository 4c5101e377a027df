import {
  type PostgresCursor,
  type PostgresPool,
  type PostgresPoolClient,
  type PostgresQueryResult,
  type RawBuilder,
  sql,
} from "kysely";
import type pg from "pg";

const MARK = /^\/\* prepared ([a-z_][a-z0-9_]*) \*\/ /;

/**
 * Put in front of a statement's text (sql`${preparedAs("name")} insert …`): the statement is then
 * prepared once per connection as a pg named statement, and each later run only binds and executes
 * it. For fixed-shape statements run on every batch (array parameters, not text that grows with the
 * batch), whose parse and plan would otherwise be paid each time. The text must never change under
 * one name: pg refuses a name reused with another text.
 */
export function preparedAs(name: string): RawBuilder<unknown> {
  const mark = `/* prepared ${name} */ `;
  if (!MARK.test(mark)) throw new Error(`invalid prepared statement name: ${name}`);
  return sql.raw(mark);
}

/** The name a statement's text asks to be prepared under, if any. */
export function preparedName(text: string): string | undefined {
  return MARK.exec(text)?.[1];
}

/**
 * The pool Kysely sees: pg's own, whose clients run a statement marked by preparedAs as a named
 * statement. One wrapper per pg client, so Kysely's per-connection state stays with its connection.
 */
export class PreparingPool implements PostgresPool {
  private readonly wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();

  constructor(private readonly pool: pg.Pool) {}

  get options(): object {
    return this.pool.options;
  }

  async connect(): Promise<PostgresPoolClient> {
    const client = await this.pool.connect();
    let wrapper = this.wrappers.get(client);
    if (!wrapper) {
      wrapper = preparingClient(client);
      this.wrappers.set(client, wrapper);
    }
    return wrapper;
  }

  end(): Promise<void> {
    return this.pool.end();
  }
}

function preparingClient(client: pg.PoolClient): PostgresPoolClient {
  function query<R>(text: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
  function query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  function query<R>(
    input: string | PostgresCursor<R>,
    parameters: ReadonlyArray<unknown> = [],
  ): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    if (typeof input !== "string") {
      // A cursor is a pg Submittable; handed through untouched.
      return client.query(input as unknown as pg.Submittable) as unknown as PostgresCursor<R>;
    }
    const name = preparedName(input);
    const values = [...parameters];
    const result = name ? client.query({ name, text: input, values }) : client.query(input, values);
    return result as unknown as Promise<PostgresQueryResult<R>>;
  }
  return {
    query,
    release: (destroy?: boolean) => client.release(destroy),
    get processID() {
      return (client as unknown as { processID?: number }).processID;
    },
  };
}
