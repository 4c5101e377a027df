import { describe, expect, it } from "vitest";
import { usageWindows, utcDayStart, utcMonthStart, utcWeekStart } from "./windows.js";

const at = (iso: string): Date => new Date(iso);

describe("UTC spend windows", () => {
  it("starts the day at 00:00 UTC, whatever the instant within it", () => {
    expect(utcDayStart(at("2026-03-10T00:00:00.000Z"))).toEqual(at("2026-03-10T00:00:00.000Z"));
    expect(utcDayStart(at("2026-03-10T23:59:59.999Z"))).toEqual(at("2026-03-10T00:00:00.000Z"));
    expect(utcDayStart(at("2026-03-11T00:00:00.000Z"))).toEqual(at("2026-03-11T00:00:00.000Z"));
  });

  it("uses UTC, not the offset of the input's time zone", () => {
    // 01:30 in UTC+02:00 is still the previous UTC day.
    expect(utcDayStart(at("2026-03-11T01:30:00+02:00"))).toEqual(at("2026-03-10T00:00:00.000Z"));
  });

  it("starts the week on Monday 00:00 UTC", () => {
    // 2026-03-09 is a Monday.
    expect(utcWeekStart(at("2026-03-09T00:00:00.000Z"))).toEqual(at("2026-03-09T00:00:00.000Z"));
    expect(utcWeekStart(at("2026-03-08T23:59:59.999Z"))).toEqual(at("2026-03-02T00:00:00.000Z"));
    expect(utcWeekStart(at("2026-03-15T23:59:59.999Z"))).toEqual(at("2026-03-09T00:00:00.000Z"));
    expect(utcWeekStart(at("2026-03-11T12:00:00.000Z"))).toEqual(at("2026-03-09T00:00:00.000Z"));
  });

  it("crosses month and year boundaries for the week", () => {
    // 2027-01-01 is a Friday; its week began on Monday 2026-12-28.
    expect(utcWeekStart(at("2027-01-01T08:00:00.000Z"))).toEqual(at("2026-12-28T00:00:00.000Z"));
  });

  it("starts the month on the 1st 00:00 UTC", () => {
    expect(utcMonthStart(at("2026-03-01T00:00:00.000Z"))).toEqual(at("2026-03-01T00:00:00.000Z"));
    expect(utcMonthStart(at("2026-02-28T23:59:59.999Z"))).toEqual(at("2026-02-01T00:00:00.000Z"));
    expect(utcMonthStart(at("2028-02-29T12:00:00.000Z"))).toEqual(at("2028-02-01T00:00:00.000Z"));
    expect(utcMonthStart(at("2026-12-31T23:59:59.999Z"))).toEqual(at("2026-12-01T00:00:00.000Z"));
  });

  it("returns all three windows for one instant", () => {
    expect(usageWindows(at("2026-03-01T10:00:00.000Z"))).toEqual({
      day: at("2026-03-01T00:00:00.000Z"),
      // 2026-03-01 is a Sunday: the week began in February.
      week: at("2026-02-23T00:00:00.000Z"),
      month: at("2026-03-01T00:00:00.000Z"),
    });
  });
});
