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
  let bound: { key: string; entry: HistogramEntry } | undefined;
  return {
    observe(value) {
      if (bound !== undefined && store.hashMap[bound.key] === bound.entry && Number.isFinite(value)) {
        const { entry } = bound;
        entry.sum += value;
        entry.count += 1;
        // prom-client's findBound: the first upper bound at or above the value (the +Inf bucket is the count).
        for (const upper of store.upperBounds) {
          if (value <= upper) {
            if (Object.hasOwn(entry.bucketValues, upper))
              entry.bucketValues[upper] = (entry.bucketValues[upper] ?? 0) + 1;
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
 * statuses, outcome names), so this map is as bounded as the metric's own series.
 */
export class BoundSeries<S> {
  private readonly series = new Map<string, S>();

  constructor(private readonly bind: (values: readonly string[]) => S) {}

  get(...values: string[]): S {
    const key = values.join("\n");
    let found = this.series.get(key);
    if (found === undefined) {
      found = this.bind(values);
      this.series.set(key, found);
    }
    return found;
  }
}
