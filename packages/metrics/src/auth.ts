import { Counter } from "prom-client";
import { registry } from "./registry.js";

const lookups = new Counter({
  name: "gw_auth_cache_lookups_total",
  help: "Principal lookups: hit (answered from the cache), shared (joined a lookup in flight) or miss (asked the key service).",
  labelNames: ["result"] as const,
  registers: [registry],
});

export function recordAuthLookup(result: "hit" | "shared" | "miss"): void {
  lookups.inc({ result });
}
