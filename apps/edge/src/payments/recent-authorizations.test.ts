import { describe, expect, it } from "vitest";
import { RecentAuthorizations } from "./recent-authorizations.js";

describe("RecentAuthorizations (the edge's replay memory)", () => {
  it("knows an authorization once it is recorded, and only that one", () => {
    const seen = new RecentAuthorizations();
    expect(seen.has("eip155:8453:0xa:0x01")).toBe(false);
    seen.record("eip155:8453:0xa:0x01");
    expect(seen.has("eip155:8453:0xa:0x01")).toBe(true);
    expect(seen.has("eip155:8453:0xa:0x02")).toBe(false);
  });

  it("forgets the least recently recorded first when full", () => {
    const seen = new RecentAuthorizations(2);
    seen.record("a");
    seen.record("b");
    // Recorded again: now the newest, so b is the oldest.
    seen.record("a");
    seen.record("c");
    expect(["a", "b", "c"].map((id) => seen.has(id))).toEqual([true, false, true]);
    seen.record("d");
    expect(["a", "c", "d"].map((id) => seen.has(id))).toEqual([false, true, true]);
  });

  it("holds 100,000 by default", () => {
    const seen = new RecentAuthorizations();
    for (let index = 0; index <= 100_000; index++) seen.record(`id-${index}`);
    expect(seen.has("id-0")).toBe(false);
    expect(seen.has("id-1")).toBe(true);
    expect(seen.has("id-100000")).toBe(true);
  });
});
