import { Counter, Histogram, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { BoundSeries, boundCounter, boundHistogram } from "./bound.js";

function metrics(name: string) {
  const registry = new Registry();
  const counter = new Counter({
    name: `${name}_total`,
    help: "h",
    labelNames: ["a", "b"],
    registers: [registry],
  });
  const histogram = new Histogram({
    name: `${name}_seconds`,
    help: "h",
    labelNames: ["a"],
    buckets: [0.1, 1, 10],
    registers: [registry],
  });
  return { registry, counter, histogram };
}

const VALUES = [0.05, 0.1, 0.5, 3, 12, 0.2];

describe("bound series", () => {
  it("expose exactly what prom-client's own calls expose", async () => {
    const plain = metrics("plain");
    const bound = metrics("plain");
    const boundCount = boundCounter(bound.counter, { a: "x", b: "y" });
    const boundTime = boundHistogram(bound.histogram, { a: "x" });
    for (const value of VALUES) {
      plain.counter.inc({ a: "x", b: "y" });
      plain.counter.inc({ a: "x", b: "z" }, 2);
      plain.histogram.observe({ a: "x" }, value);
      boundCount.inc();
      bound.counter.inc({ a: "x", b: "z" }, 2);
      boundTime.observe(value);
    }
    expect(await bound.registry.metrics()).toBe(await plain.registry.metrics());
  });

  it("start again after the metric was reset", async () => {
    const { registry, counter, histogram } = metrics("reset");
    const count = boundCounter(counter, { a: "x", b: "y" });
    const time = boundHistogram(histogram, { a: "x" });
    count.inc();
    time.observe(1);
    registry.resetMetrics();
    count.inc(3);
    time.observe(5);
    const [counterValue] = (await counter.get()).values;
    expect(counterValue?.value).toBe(3);
    const sum = (await histogram.get()).values.find((value) => value.metricName === "reset_seconds_sum");
    expect(sum?.value).toBe(5);
  });

  it("binds each combination of label values once", () => {
    let bound = 0;
    const series = new BoundSeries((values) => {
      bound++;
      return values.join("/");
    });
    expect(series.get("a", "b")).toBe("a/b");
    expect(series.get("a", "b")).toBe("a/b");
    expect(series.get("a", "c")).toBe("a/c");
    expect(bound).toBe(2);
    const five = new BoundSeries((values) => values.join("/"));
    expect(five.get("a", "b", "c", "d", "e")).toBe("a/b/c/d/e");
    expect(five.get("a", "b", "c", "d", "f")).toBe("a/b/c/d/f");
    expect(five.get("a", "b", "c", "d", "e")).toBe("a/b/c/d/e");
  });
});
