import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordAuthLookup } from "./auth.js";
import { boundedCode } from "./registry.js";
import { type MetricsListener, serveMetrics } from "./server.js";

describe("metrics listener", () => {
  let listener: MetricsListener;
  beforeAll(async () => {
    listener = await serveMetrics("127.0.0.1", 0);
  });
  afterAll(() => listener.close());

  it("serves the registry as Prometheus text, Node's own series included", async () => {
    recordAuthLookup("hit");
    const response = await fetch(listener.url);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/plain; version=0.0.4");
    const text = await response.text();
    expect(text).toMatch(/^gw_auth_cache_lookups_total\{result="hit"\} [1-9]/m);
    for (const name of [
      "nodejs_eventloop_lag_seconds",
      "nodejs_heap_size_used_bytes",
      "nodejs_gc_duration_seconds",
    ])
      expect(text).toContain(`# TYPE ${name} `);
  });

  it("serves nothing else on its port", async () => {
    const base = listener.url.replace(/\/metrics$/, "");
    expect((await fetch(`${base}/`)).status).toBe(404);
    expect((await fetch(`${base}/v1/chat/completions`)).status).toBe(404);
    const post = await fetch(listener.url, { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
  });
});

describe("boundedCode", () => {
  it("keeps catalogue-shaped codes and folds anything else into one value", () => {
    expect(boundedCode("insufficient_credits")).toBe("insufficient_credits");
    expect(boundedCode(undefined)).toBe("none");
    expect(boundedCode("sk-gw-abc123/DEF")).toBe("other");
    expect(boundedCode("x".repeat(60))).toBe("other");
  });
});
