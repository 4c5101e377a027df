import { describe, expect, it } from "vitest";
import { formatUsd } from "../../components/format";
import {
  type ActivityItem,
  addDays,
  balanceOf,
  clampRange,
  daysBetween,
  describeChart,
  inRange,
  lastDays,
  perDay,
  perGroup,
  totals,
} from "./series";

function item(date: string, model: string, provider: string, usage: number, requests: number): ActivityItem {
  return {
    date,
    model,
    model_permaslug: model,
    endpoint_id: `${provider}:${model}`,
    provider_name: provider,
    usage,
    byok_usage_inference: 0,
    requests,
    prompt_tokens: requests * 10,
    completion_tokens: requests * 5,
    reasoning_tokens: 0,
  };
}

const items = [
  item("2026-11-23", "openai/gpt-4o", "openai", 0.1, 2),
  item("2026-11-23", "anthropic/claude", "anthropic", 0.2, 1),
  item("2026-11-21", "openai/gpt-4o", "azure", 0.05, 3),
  item("2026-11-10", "openai/gpt-4o", "openai", 1, 10),
];

describe("days", () => {
  it("adds days across months", () => {
    expect(addDays("2026-11-30", 1)).toBe("2026-12-01");
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
  });
  it("lists the days of a range, inclusive", () => {
    expect(daysBetween({ from: "2026-11-29", to: "2026-12-02" })).toEqual([
      "2026-11-29",
      "2026-11-30",
      "2026-12-01",
      "2026-12-02",
    ]);
    expect(daysBetween({ from: "2026-11-02", to: "2026-11-01" })).toEqual([]);
  });
  it("last N days end today", () =>
    expect(lastDays("2026-11-23", 7)).toEqual({ from: "2026-11-17", to: "2026-11-23" }));
  it("clamps a range to the 30 days the API keeps", () => {
    expect(clampRange({ from: "2026-01-01", to: "2027-01-01" }, "2026-11-23")).toEqual({
      from: "2026-10-25",
      to: "2026-11-23",
    });
    expect(clampRange({ from: "2026-11-20", to: "2026-11-18" }, "2026-11-23")).toEqual({
      from: "2026-11-20",
      to: "2026-11-20",
    });
  });
});

describe("activity → figures", () => {
  const range = { from: "2026-11-20", to: "2026-11-23" };

  it("keeps the items in the range", () => expect(inRange(items, range)).toHaveLength(3));

  it("totals spend and requests without float drift", () => {
    const sum = totals(inRange(items, range));
    expect(sum.spend).toBe(0.35);
    expect(sum.requests).toBe(6);
    expect(sum.promptTokens).toBe(60);
  });

  it("gives every day of the range a bucket, zero when idle", () => {
    expect(perDay(inRange(items, range), range)).toEqual([
      { label: "2026-11-20", spend: 0, requests: 0 },
      { label: "2026-11-21", spend: 0.05, requests: 3 },
      { label: "2026-11-22", spend: 0, requests: 0 },
      { label: "2026-11-23", spend: 0.3, requests: 3 },
    ]);
  });

  it("groups per model and per provider, largest spend first", () => {
    expect(perGroup(inRange(items, range), "model")).toEqual([
      { label: "anthropic/claude", spend: 0.2, requests: 1 },
      { label: "openai/gpt-4o", spend: 0.15, requests: 5 },
    ]);
    expect(perGroup(items, "provider").map((bucket) => bucket.label)).toEqual([
      "openai",
      "anthropic",
      "azure",
    ]);
  });

  it("sums the categories past the limit into Other", () => {
    const many = Array.from({ length: 5 }, (_, index) => item("2026-11-23", `m${index}`, "p", index + 1, 1));
    expect(perGroup(many, "model", 3)).toEqual([
      { label: "m4", spend: 5, requests: 1 },
      { label: "m3", spend: 4, requests: 1 },
      { label: "Other (3)", spend: 6, requests: 3 },
    ]);
  });

  it("balance is credited minus spent", () => {
    expect(balanceOf({ total_credits: 10, total_usage: 9.7 })).toBe(0.3);
  });

  it("describes a chart for screen readers", () => {
    const buckets = perGroup(inRange(items, range), "model");
    expect(describeChart("per model", buckets, "spend", formatUsd)).toBe(
      "Bar chart of spend per model, 2 entries, total $0.35; largest: anthropic/claude at $0.20.",
    );
    expect(describeChart("per day", [], "requests", String)).toBe(
      "Bar chart of requests per day, 0 entries, all zero.",
    );
  });
});
