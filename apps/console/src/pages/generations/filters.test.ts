import { describe, expect, it } from "vitest";
import {
  filtersFromSearch,
  filtersIntoSearch,
  filtersProblem,
  filtersToQuery,
  NO_FILTERS,
  PAGE_SIZE,
} from "./filters";

describe("filtersToQuery", () => {
  it("sends the provider and a known status (issue 34), never an unknown status", () => {
    expect(filtersToQuery({ ...NO_FILTERS, provider: " openai ", status: "error" })).toEqual({
      limit: PAGE_SIZE,
      provider: "openai",
      status: "error",
    });
    expect(filtersToQuery({ ...NO_FILTERS, status: "failed" })).toEqual({ limit: PAGE_SIZE });
  });

  it("sends only the page size when nothing is filtered", () => {
    expect(filtersToQuery(NO_FILTERS)).toEqual({ limit: PAGE_SIZE });
  });

  it("sends every set filter, trimmed, with the cursor", () => {
    const hash = "a".repeat(64);
    expect(
      filtersToQuery(
        { apiKeyHash: ` ${hash} `, model: " openai/gpt-4o ", from: "2026-11-01", to: "2026-11-23" },
        "c1",
        10,
      ),
    ).toEqual({
      limit: 10,
      cursor: "c1",
      api_key_hash: hash,
      model: "openai/gpt-4o",
      from: "2026-11-01",
      to: "2026-11-23",
    });
  });

  it("leaves out blank filters rather than sending empty strings", () => {
    expect(filtersToQuery({ ...NO_FILTERS, model: "   " }, "")).toEqual({ limit: PAGE_SIZE });
  });
});

describe("filtersProblem", () => {
  it("accepts an open, a one-day and an ordered range", () => {
    expect(filtersProblem(NO_FILTERS)).toBeUndefined();
    expect(filtersProblem({ ...NO_FILTERS, from: "2026-11-23", to: "2026-11-23" })).toBeUndefined();
    expect(filtersProblem({ ...NO_FILTERS, from: "2026-11-01", to: "2026-11-23" })).toBeUndefined();
  });

  it("refuses a reversed range and a malformed date", () => {
    expect(filtersProblem({ ...NO_FILTERS, from: "2026-11-24", to: "2026-11-23" })).toMatch(/From must be/);
    expect(filtersProblem({ ...NO_FILTERS, to: "23/11/2026" })).toMatch(/^To: /);
  });
});

describe("URL round trip", () => {
  it("keeps other parameters and drops cleared filters", () => {
    const start = new URLSearchParams("id=gen-1&model=old");
    const next = filtersIntoSearch({ ...NO_FILTERS, from: "2026-11-01" }, start);
    expect(next.get("id")).toBe("gen-1");
    expect(next.has("model")).toBe(false);
    expect(filtersFromSearch(next)).toEqual({ ...NO_FILTERS, from: "2026-11-01" });
  });
});
