import { describe, expect, it } from "vitest";
import { perMillionToPicoPerToken, picoToDecimalString, picoToUsdNumber, usdToPico } from "./index.js";

describe("money", () => {
  it("parses decimal USD into exact pico-dollars", () => {
    expect(usdToPico("10")).toBe(10_000_000_000_000n);
    expect(usdToPico("0.00000015")).toBe(150_000n);
    expect(usdToPico("-1.5")).toBe(-1_500_000_000_000n);
    expect(usdToPico(0.25)).toBe(250_000_000_000n);
  });

  it("rejects malformed amounts and sub-pico precision", () => {
    expect(() => usdToPico("1e3")).toThrow(RangeError);
    expect(() => usdToPico("abc")).toThrow(RangeError);
    expect(() => usdToPico("0.0000000000001")).toThrow(RangeError);
  });

  it("bills an 11-token prompt on a cheap model exactly", () => {
    const pricePerToken = perMillionToPicoPerToken("0.15");
    const cost = 11n * pricePerToken;
    expect(picoToDecimalString(cost)).toBe("0.000001650000");
    expect(picoToUsdNumber(cost)).toBe(0.00000165);
  });

  it("round-trips through the decimal string form", () => {
    for (const pico of [0n, 1n, -1n, 123_456_789_012_345n]) {
      expect(usdToPico(picoToDecimalString(pico))).toBe(pico);
    }
  });
});
