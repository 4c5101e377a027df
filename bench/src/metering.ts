import { type Freshness, FreshnessProbe } from "./load/freshness.js";
import type { LoadOptions } from "./load/generator.js";
import type { Plan } from "./plan.js";
import type { Target } from "./targets/target.js";

/** Answer → generation record readable, answer → ledger row, on the split plane's own database. */
export interface RowFreshness {
  generation: Freshness;
  ledger: Freshness;
}

const GENERATIONS = "select id from generations.generations where id = any($1::text[])";
// The usage debit's event id is the generation id (the edge's usage event).
const LEDGER = "select event_id as id from billing.ledger_entries where event_id = any($1::text[])";

/**
 * Wraps a load with the two freshness probes when the target has a database to poll (the split plane),
 * and waits, before returning, until the sampled rows are readable (so the probes' lookups fall inside the
 * scenario's database counters, where the caller subtracts them).
 */
export async function withFreshness<T extends object>(
  plan: Plan,
  target: Target,
  load: (options: LoadOptions) => Promise<T>,
): Promise<T & { freshness?: RowFreshness }> {
  const database = target.database;
  if (!database) return load({});
  const { sampleEvery, pollMs, timeoutMs } = plan.freshness;
  const probe = (text: string): FreshnessProbe =>
    new FreshnessProbe(
      async (ids) => new Set((await database.query<{ id: string }>(text, [ids])).map((row) => row.id)),
      sampleEvery,
      pollMs,
    );
  const generation = probe(GENERATIONS);
  const ledger = probe(LEDGER);
  generation.start();
  ledger.start();
  const result = await load({
    onAnswer: (id, at) => {
      generation.answered(id, at);
      ledger.answered(id, at);
    },
  });
  const [generationFreshness, ledgerFreshness] = await Promise.all([
    generation.finish(timeoutMs),
    ledger.finish(timeoutMs),
  ]);
  return { ...result, freshness: { generation: generationFreshness, ledger: ledgerFreshness } };
}

/** The probes' own lookups are transactions on the same database: not the requests' commits. */
export function probeCommits(freshness: RowFreshness | undefined): number {
  return freshness ? freshness.generation.queries + freshness.ledger.queries : 0;
}
