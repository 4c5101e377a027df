import { describe, expect, it } from "vitest";
import { INT4_MAX, int4IdText, isExactUtcInstant, isStorableDate, storableInstantText } from "./storable.js";

describe("what the database stores (issue 33: zod accepted what PostgreSQL refused, a 500)", () => {
  it("takes only real UTC instants of years 1 to 9999 from a cursor", () => {
    expect(isExactUtcInstant("2026-11-27T10:11:12.123456Z")).toBe(true);
    expect(isExactUtcInstant("2024-02-29T00:00:00.000000Z")).toBe(true);
    expect(isExactUtcInstant("0001-01-01T00:00:00.000000Z")).toBe(true);
    for (const text of [
      "0000-01-01T00:00:00.000000Z",
      "2026-02-30T00:00:00.000000Z",
      "2025-02-29T00:00:00.000000Z",
      "2026-04-31T00:00:00.000000Z",
      "2026-13-01T00:00:00.000000Z",
      "2026-01-01T24:00:00.000000Z",
      "2026-01-01T23:60:00.000000Z",
      "2026-01-01T00:00:00+01:00",
      "nonsense",
    ])
      expect(isExactUtcInstant(text), text).toBe(false);
  });

  it("takes query dates within years 1 to 9999 only", () => {
    expect(storableInstantText.safeParse("2026-01-31").success).toBe(true);
    expect(storableInstantText.safeParse("2026-01-31T10:00:00+02:00").success).toBe(true);
    for (const text of ["0000-01-01", "2026-02-30", "0001-01-01T00:00:00+14:00", "0000-06-01T00:00:00Z"])
      expect(storableInstantText.safeParse(text).success, text).toBe(false);
    expect(isStorableDate(new Date(Number.NaN))).toBe(false);
  });

  it("takes integer ids up to int4's maximum", () => {
    expect(int4IdText.safeParse(String(INT4_MAX)).success).toBe(true);
    expect(int4IdText.safeParse("1").success).toBe(true);
    for (const text of [String(INT4_MAX + 1), "9999999999", "0", "-1", "01", "1e3"])
      expect(int4IdText.safeParse(text).success, text).toBe(false);
  });
});
