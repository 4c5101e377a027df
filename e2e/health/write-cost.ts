import type { Database } from "@gw/db";

const COUNTED = Symbol("counted");
/** A test's own queries on the counted pool start with this and are not counted. */
export const PROBE = "/* probe */";

type Pool = Database<unknown>["pool"];
type Client = { query: (...args: unknown[]) => unknown; [COUNTED]?: true };

/** What the generations app's pool sent: statements by kind, and the transactions they committed. */
export interface StatementCounts {
  statements: number;
  commits: number;
  byKind: Map<string, number>;
}

/**
 * Counts every statement a pool's connections send (Kysely and pg both go through client.query), and
 * the commits: each COMMIT, and each statement sent outside BEGIN … COMMIT (it commits on its own).
 */
export function countStatements(
  pool: Pool,
  /** Statement kinds (as kindOf names them) that are not counted: work that is not the batch's. */
  ignored: (kind: string) => boolean = () => false,
): { counts: StatementCounts; reset(): void } {
  const counts: StatementCounts = { statements: 0, commits: 0, byKind: new Map() };
  const watch = (client: Client) => {
    if (client[COUNTED]) return;
    client[COUNTED] = true;
    let inTransaction = false;
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = (...args: unknown[]) => {
      const first = args[0];
      const text = typeof first === "string" ? first : ((first as { text?: string })?.text ?? "");
      // The test's own probes are not the app's work.
      if (text.startsWith(PROBE)) return query(...args);
      const kind = kindOf(text);
      if (ignored(kind)) return query(...args);
      counts.statements++;
      counts.byKind.set(kind, (counts.byKind.get(kind) ?? 0) + 1);
      if (kind === "begin") inTransaction = true;
      else if (kind === "commit" || kind === "rollback") {
        if (kind === "commit") counts.commits++;
        inTransaction = false;
      } else if (!inTransaction) counts.commits++;
      return query(...args);
    };
  };
  pool.on("connect", (client) => watch(client as unknown as Client));
  pool.on("acquire", (client) => watch(client as unknown as Client));
  return {
    counts,
    reset: () => {
      counts.statements = 0;
      counts.commits = 0;
      counts.byKind.clear();
    },
  };
}

function kindOf(text: string): string {
  const words = text.trim().toLowerCase().replace(/\s+/g, " ");
  if (words.startsWith("with ")) {
    const targets = [...words.matchAll(/\binsert into "?([a-z_]+)"?/g)].map((match) => match[1]);
    return `with…insert ${targets.join("+")}`;
  }
  const match =
    /^(insert into|update|delete from|select .*? from|select|begin|commit|rollback)\s*"?([a-z_]*)/.exec(
      words,
    );
  if (!match) return words.split(" ")[0] ?? "?";
  const verb = (match[1] ?? "").startsWith("select") ? "select" : (match[1] ?? "");
  const table = /\bfrom "?([a-z_]+)"?/.exec(words)?.[1] ?? match[2] ?? "";
  return `${verb} ${verb === "select" ? table : (match[2] ?? "")}`.trim();
}

/** Per table of a schema: rows inserted, updated (and how many of them HOT), deleted; its index count. */
export interface TableWrites {
  table: string;
  inserted: number;
  updated: number;
  hotUpdated: number;
  deleted: number;
  indexes: number;
}

/** pg_stat_user_tables of one schema (the cumulative statistics: read after the writers flushed them). */
export async function tableWrites(pool: Pool, schema: string): Promise<TableWrites[]> {
  const result = await pool.query<{
    table: string;
    inserted: string;
    updated: string;
    hot: string;
    deleted: string;
    indexes: string;
  }>(
    `${PROBE} select s.relname as table, s.n_tup_ins::text as inserted, s.n_tup_upd::text as updated,
            s.n_tup_hot_upd::text as hot, s.n_tup_del::text as deleted,
            (select count(*) from pg_index i where i.indrelid = s.relid)::text as indexes
       from pg_stat_user_tables s where s.schemaname = $1 order by s.relname`,
    [schema],
  );
  return result.rows.map((row) => ({
    table: row.table,
    inserted: Number(row.inserted),
    updated: Number(row.updated),
    hotUpdated: Number(row.hot),
    deleted: Number(row.deleted),
    indexes: Number(row.indexes),
  }));
}

/** Heap rows and index entries written: an insert or a non-HOT update adds one entry to every index. */
export function writesOf(tables: readonly TableWrites[]): { rows: number; indexEntries: number } {
  let rows = 0;
  let indexEntries = 0;
  for (const table of tables) {
    rows += table.inserted + table.updated;
    indexEntries += (table.inserted + table.updated - table.hotUpdated) * table.indexes;
  }
  return { rows, indexEntries };
}
