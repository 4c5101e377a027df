import { describe, expect, it } from "vitest";
import {
  perMillionToPicoPerToken,
  picoToDecimalString,
  picoToUsdNumber,
  sumPico,
  usdToPico,
} from "./index.js";

describe("money", () => {
  it("parses decimal USD into exact pico-dollars", () => {
    expect(usdToPico("10")).toBe(10_000_000_000_000n);
    expect(usdToPico("0.00000015")).toBe(150_000n);
    expect(usdToPico("-1.5")).toBe(-1_500_000_000_000n);
    expect(usdToPico(0.25)).toBe(250_000_000_000n);
  });

  it("ignores whitespace around a decimal string (as config files and env variables carry it)", () => {
    expect(usdToPico(" 2.5\n")).toBe(2_500_000_000_000n);
  });

  it("rejects malformed amounts and sub-pico precision, naming the amount", () => {
    expect(() => usdToPico("1e3")).toThrow(RangeError);
    expect(() => usdToPico("abc")).toThrow('not a decimal USD amount: "abc"');
    expect(() => usdToPico("0.0000000000001")).toThrow(
      "USD amount has more precision than a pico-dollar: 0.0000000000001",
    );
    expect(() => usdToPico(Number.POSITIVE_INFINITY)).toThrow("not a finite USD amount: Infinity");
    expect(() => usdToPico(Number.NaN)).toThrow("not a finite USD amount: NaN");
  });

  it("accepts zeros past the twelfth fraction digit, which add no precision", () => {
    expect(usdToPico("1.0000000000000")).toBe(1_000_000_000_000n);
    expect(usdToPico("1.5000000000000000")).toBe(1_500_000_000_000n);
    expect(usdToPico("0.1234567890120")).toBe(123_456_789_012n);
  });

  it("bills an 11-token prompt on a cheap model exactly", () => {
    const pricePerToken = perMillionToPicoPerToken("0.15");
    const cost = 11n * pricePerToken;
    expect(picoToDecimalString(cost)).toBe("0.000001650000");
    expect(picoToUsdNumber(cost)).toBe(0.00000165);
  });

  it("refuses a per-million price that is not a whole pico-dollar per token", () => {
    // 0.0000001 USD per million tokens is 0.1 pico per token: it would round, so it is refused.
    expect(() => perMillionToPicoPerToken("0.0000001")).toThrow(
      "price per million 0.0000001 is not a whole pico-dollar per token",
    );
    expect(perMillionToPicoPerToken("0.000001")).toBe(1n);
  });

  it("renders zero and negatives with a sign only where the amount is negative", () => {
    expect(picoToDecimalString(0n)).toBe("0.000000000000");
    expect(picoToDecimalString(-1n)).toBe("-0.000000000001");
    expect(picoToDecimalString(1_500_000_000_000n)).toBe("1.500000000000");
    expect(picoToUsdNumber(-2_500_000_000_000n)).toBe(-2.5);
  });

  it("sums amounts exactly, an empty list to zero", () => {
    expect(sumPico([])).toBe(0n);
    expect(sumPico([1n, 2n, -4n])).toBe(-1n);
    expect(sumPico(new Set([1_000_000_000_001n, 1n]))).toBe(1_000_000_000_002n);
  });

  it("round-trips through the decimal string form", () => {
    for (const pico of [0n, 1n, -1n, 123_456_789_012_345n]) {
      expect(usdToPico(picoToDecimalString(pico))).toBe(pico);
    }
  });
});
