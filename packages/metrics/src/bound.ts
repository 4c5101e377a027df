import type { Counter, Histogram } from "prom-client";

/**
 * prom-client 15 (pinned) keeps each series in `hashMap`, keyed by a string built from the label
 * values, and its `inc(labels)` / `observe(labels)` (a `labels()` child too) build that key and
 * validate every label on each call. A bound series finds its entry once and then adds to it directly:
 * on the hot path every request updates about five series, so that work is done once per series
 * instead of once per request. Anything unexpected (the metric was reset, a value is not finite) goes
 * through prom-client's own call, which also re-binds.
 */
interface Entry {
  labels: object;
}
interface CounterEntry extends Entry {
  value: number;
}
interface HistogramEntry extends Entry {
  sum: number;
  count: number;
  bucketValues: Record<number, number>;
}
interface Store<E extends Entry> {
  hashMap: Record<string, E | undefined>;
}

export interface BoundCounter {
  inc(value?: number): void;
}

export interface BoundHistogram {
  observe(value: number): void;
}

/** The entry prom-client stores these label values under (found once per binding, by value). */
function find<E extends Entry>(
  store: Store<E>,
  labels: Record<string, string | undefined>,
): { key: string; entry: E } | undefined {
  const names = Object.keys(labels);
  for (const [key, entry] of Object.entries(store.hashMap)) {
    if (entry === undefined) continue;
    const stored = entry.labels as Record<string, unknown>;
    if (Object.keys(stored).length === names.length && names.every((name) => stored[name] === labels[name]))
      return { key, entry };
  }
  return undefined;
}

export function boundCounter<T extends string>(
  counter: Counter<T>,
  labels: Partial<Record<T, string>>,
): BoundCounter {
  const store = counter as unknown as Store<CounterEntry>;
  let bound: { key: string; entry: CounterEntry } | undefined;
  return {
    inc(value = 1) {
      if (
        bound !== undefined &&
        store.hashMap[bound.key] === bound.entry &&
        value >= 0 &&
        Number.isFinite(value)
      ) {
        bound.entry.value += value;
        return;
      }
      counter.inc(labels, value);
      bound = find(store, labels);
    },
  };
}

export function boundHistogram<T extends string>(
  histogram: Histogram<T>,
  labels: Partial<Record<T, string>>,
): BoundHistogram {
  const store = histogram as unknown as Store<HistogramEntry> & { upperBounds: readonly number[] };
  const upperBounds = store.upperBounds;
  // The bucket's property name, converted once instead of on every observation.
  const bucketKeys = upperBounds.map(String);
  let bound: { key: string; entry: HistogramEntry } | undefined;
  return {
    observe(value) {
      if (bound !== undefined && store.hashMap[bound.key] === bound.entry && Number.isFinite(value)) {
        const { entry } = bound;
        entry.sum += value;
        entry.count += 1;
        // prom-client's findBound: the first upper bound at or above the value (the +Inf bucket is the count).
        for (let index = 0; index < upperBounds.length; index++) {
          if (value <= (upperBounds[index] as number)) {
            const buckets = entry.bucketValues as Record<string, number | undefined>;
            const key = bucketKeys[index] as string;
            const count = buckets[key];
            if (count !== undefined) buckets[key] = count + 1;
            break;
          }
        }
        return;
      }
      histogram.observe(labels, value);
      bound = find(store, labels);
    },
  };
}

/**
 * Bound series by their label values: the value sets are bounded (route patterns, catalogue ids,
 * statuses, outcome names), so these maps are as bounded as the metric's own series. One map level per
 * label, and no key string or argument array built per lookup. A set is always asked with the same
 * number of values (its metric's labels).
 */
export class BoundSeries<S> {
  private readonly root = new Map<string, unknown>();

  constructor(private readonly bind: (values: readonly string[]) => S) {}

  get(a: string, b?: string, c?: string, d?: string, e?: string): S {
    let level = this.root;
    let last = a;
    if (b !== undefined) {
      level = below(level, a);
      last = b;
      if (c !== undefined) {
        level = below(level, b);
        last = c;
        if (d !== undefined) {
          level = below(level, c);
          last = d;
          if (e !== undefined) {
            level = below(level, d);
            last = e;
          }
        }
      }
    }
    let found = level.get(last) as S | undefined;
    if (found === undefined) {
      found = this.bind([a, b, c, d, e].filter((value): value is string => value !== undefined));
      level.set(last, found);
    }
    return found;
  }
}

function below(level: Map<string, unknown>, value: string): Map<string, unknown> {
  let next = level.get(value) as Map<string, unknown> | undefined;
  if (next === undefined) {
    next = new Map<string, unknown>();
    level.set(value, next);
  }
  return next;
}
