import { readFileSync } from "node:fs";
import { join } from "node:path";
import { enableDefaultMetrics, metricNames } from "@gw/metrics";
import { repoRoot } from "@gw/testing";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

// infra/prometheus/alerts.yml against the code: every metric an alert's expression reads is one the
// apps export (the shared registry's list, Node's defaults included), and every runbook_url names a
// section of docs/operations.md that exists.

const root = repoRoot();

interface Rule {
  alert: string;
  expr: string;
  annotations: { runbook_url?: string; summary?: string };
}

const rules: Rule[] = (
  parse(readFileSync(join(root, "infra/prometheus/alerts.yml"), "utf8")) as { groups: { rules: Rule[] }[] }
).groups.flatMap((group) => group.rules);

/** Written by Prometheus itself for every scrape target, not by an app. */
const PROMETHEUS_SERIES = new Set(["up"]);

const PROMQL_WORDS = new Set([
  ...["sum", "max", "min", "avg", "count", "rate", "increase", "irate", "histogram_quantile", "abs"],
  ...[
    "by",
    "without",
    "and",
    "or",
    "unless",
    "on",
    "ignoring",
    "group_left",
    "group_right",
    "bool",
    "offset",
  ],
]);

/** The metric names an expression reads: identifiers left once strings, matchers, groupings and ranges are gone. */
export function metricsIn(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, "")
    .replace(/\{[^}]*\}/g, " ")
    .replace(/\b(by|without|on|ignoring)\s*\([^)]*\)/g, " ")
    .replace(/\[[^\]]*\]/g, " ");
  const words = bare.match(/[A-Za-z_:][A-Za-z0-9_:]*/g) ?? [];
  return [...new Set(words.filter((word) => !PROMQL_WORDS.has(word)))];
}

/** A histogram's series are read as `<name>_bucket`, `_count` and `_sum`. */
function exported(name: string, known: Set<string>): boolean {
  if (known.has(name) || PROMETHEUS_SERIES.has(name)) return true;
  const base = name.replace(/_(bucket|count|sum)$/, "");
  return base !== name && known.has(base);
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function anchors(markdown: string): Set<string> {
  return new Set(
    markdown
      .split("\n")
      .filter((line) => /^#{1,6} /.test(line))
      .map((line) =>
        line
          .replace(/^#+ /, "")
          .trim()
          .toLowerCase()
          .replace(/[^a-z0-9 _-]/g, "")
          .replace(/ /g, "-"),
      ),
  );
}

describe("Prometheus alert rules", () => {
  enableDefaultMetrics();
  const known = new Set(metricNames());

  it("are found, one per concern the runbook covers", () => {
    expect(rules.length).toBeGreaterThanOrEqual(10);
    expect(new Set(rules.map((rule) => rule.alert)).size).toBe(rules.length);
  });

  it("read only series the apps export", () => {
    const unknown = rules.flatMap((rule) =>
      metricsIn(rule.expr)
        .filter((name) => !exported(name, known))
        .map((name) => `${rule.alert}: ${name}`),
    );
    expect(unknown).toEqual([]);
  });

  it("each point at a runbook section of docs/operations.md", () => {
    const sections = anchors(readFileSync(join(root, "docs/operations.md"), "utf8"));
    const missing = rules.filter((rule) => {
      const match = /^docs\/operations\.md#(.+)$/.exec(rule.annotations.runbook_url ?? "");
      return !match || !sections.has(match[1] as string);
    });
    expect(missing.map((rule) => rule.alert)).toEqual([]);
  });

  it("the metric-name reader sees through matchers, groupings and ranges", () => {
    expect(
      metricsIn(
        'sum by (app) (rate(gw_http_requests_total{status=~"5.."}[5m])) / sum(rate(x_total[5m])) > 0.05',
      ),
    ).toEqual(["gw_http_requests_total", "x_total"]);
  });
});
