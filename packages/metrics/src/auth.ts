import { Counter } from "prom-client";
import { boundCounter } from "./bound.js";
import { registry } from "./registry.js";

const lookups = new Counter({
  name: "gw_auth_cache_lookups_total",
  help: "Principal lookups: hit (answered from the cache), shared (joined a lookup in flight) or miss (asked the key service).",
  labelNames: ["result"] as const,
  registers: [registry],
});

const results = {
  hit: boundCounter(lookups, { result: "hit" }),
  shared: boundCounter(lookups, { result: "shared" }),
  miss: boundCounter(lookups, { result: "miss" }),
};

export function recordAuthLookup(result: "hit" | "shared" | "miss"): void {
  results[result].inc();
}
