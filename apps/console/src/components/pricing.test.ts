import { describe, expect, it } from "vitest";
import { decimalOf, hasPrice, perMillionTokens, perTokenFromPerMillion, shiftDecimal } from "./pricing";

describe("perMillionTokens", () => {
  it.each([
    ["0.00000015", "$0.15"],
    ["0.0000025", "$2.5"],
    ["0.000003", "$3"],
    ["0.00006", "$60"],
    ["0.0000000375", "$0.0375"],
    ["1", "$1000000"],
    ["0", "free"],
    ["0.000", "free"],
    ["-1", "varies"],
    ["abc", "varies"],
  ])("%s per token → %s per million", (perToken, shown) => {
    expect(perMillionTokens(perToken)).toBe(shown);
  });
});

describe("shiftDecimal", () => {
  it("never introduces float error", () => {
    expect(shiftDecimal("0.00000015", 6)).toBe("0.15");
    expect(shiftDecimal("0.1", 1)).toBe("1");
    expect(shiftDecimal("12.34", 0)).toBe("12.34");
    expect(shiftDecimal("12.34", -3)).toBe("0.01234");
    expect(shiftDecimal("007", 0)).toBe("7");
  });
});

describe("decimalOf", () => {
  it.each([
    [1.5e-7, "0.00000015"],
    [0.000003, "0.000003"],
    [2.5e-6, "0.0000025"],
    [0, "0"],
    [12, "12"],
    [1e21, "1000000000000000000000"],
  ])("%s → %s", (value, text) => {
    expect(decimalOf(value)).toBe(text);
  });

  it("gives per-million prices without float noise", () => {
    // 1.5e-7 * 1e6 is 0.15000000000000002 in floating point.
    expect(perMillionTokens(decimalOf(1.5e-7))).toBe("$0.15");
    expect(perMillionTokens(decimalOf(-1))).toBe("varies");
  });
});

describe("perTokenFromPerMillion", () => {
  it.each([
    ["0.15", "0.00000015"],
    ["2.5", "0.0000025"],
    ["3", "0.000003"],
    ["1000000", "1"],
    ["0", "0"],
    ["12345678.9", "12.3456789"],
  ])("$%s per million → %s per token", (perMillion, perToken) => {
    expect(perTokenFromPerMillion(perMillion)).toBe(perToken);
  });

  it("rejects what is not a non-negative decimal", () => {
    expect(perTokenFromPerMillion("-1")).toBeUndefined();
    expect(perTokenFromPerMillion("1e-6")).toBeUndefined();
    expect(perTokenFromPerMillion("")).toBeUndefined();
  });

  it("round-trips with perMillionTokens", () => {
    expect(perMillionTokens(perTokenFromPerMillion("0.075") ?? "")).toBe("$0.075");
  });
});

describe("hasPrice", () => {
  it("is false for absent or zero prices", () => {
    expect(hasPrice(undefined)).toBe(false);
    expect(hasPrice("0")).toBe(false);
    expect(hasPrice("0.0")).toBe(false);
    expect(hasPrice("0.0000003")).toBe(true);
  });
});
