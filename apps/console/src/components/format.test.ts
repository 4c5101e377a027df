import { describe, expect, it } from "vitest";
import { formatDateTime, formatDuration, formatNumber, formatUsd, formatUsdOrNone } from "./format";

describe("formatUsd", () => {
  it("writes dollars with cents from one dollar up", () => {
    expect(formatUsd(12.345)).toBe("$12.35");
    expect(formatUsd(1234)).toBe("$1,234.00");
    expect(formatUsd(-3)).toBe("-$3.00");
  });
  it("keeps fractions of a cent readable (three significant digits)", () => {
    expect(formatUsd(0.5)).toBe("$0.50");
    expect(formatUsd(0.000123456)).toBe("$0.000123");
    expect(formatUsd(0.00002)).toBe("$0.000020");
  });
  it("writes zero and non-numbers plainly", () => {
    expect(formatUsd(0)).toBe("$0.00");
    expect(formatUsd(Number.NaN)).toBe("—");
  });
  it("null is no limit", () => {
    expect(formatUsdOrNone(null)).toBe("No limit");
    expect(formatUsdOrNone(2)).toBe("$2.00");
  });
});

describe("numbers, times, durations", () => {
  it("groups thousands", () => {
    expect(formatNumber(1234567)).toBe("1,234,567");
    expect(formatNumber(2.345)).toBe("2.35");
  });
  it("writes UTC times", () => {
    expect(formatDateTime("2026-11-23T19:40:12.345Z")).toBe("2026-11-23 19:40 UTC");
    expect(formatDateTime("2026-11-23T21:40:00+02:00")).toBe("2026-11-23 19:40 UTC");
    expect(formatDateTime(null)).toBe("—");
  });
  it("writes durations in ms or s", () => {
    expect(formatDuration(850.4)).toBe("850 ms");
    expect(formatDuration(2400)).toBe("2.4 s");
    expect(formatDuration(undefined)).toBe("—");
  });
});
