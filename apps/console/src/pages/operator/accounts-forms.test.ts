import { describe, expect, it } from "vitest";
import { creditAmountProblem, newIdempotencyKey } from "./accounts-forms";

describe("creditAmountProblem", () => {
  it("accepts positive decimal USD amounts", () => {
    for (const amount of ["25", "12.50", " 0.01 ", "1000000", "999999.123456789012"]) {
      expect(creditAmountProblem(amount)).toBeUndefined();
    }
  });

  it("refuses empty, zero, negative and non-decimal amounts with a reason", () => {
    expect(creditAmountProblem("")).toMatch(/Enter an amount/);
    expect(creditAmountProblem("0.00")).toMatch(/more than zero/);
    expect(creditAmountProblem("-5")).toMatch(/plain decimal/);
    expect(creditAmountProblem("1e3")).toMatch(/plain decimal/);
    expect(creditAmountProblem("12.1234567890123")).toMatch(/plain decimal/);
  });
});

describe("the ledger's limit for one credit (issue 34: beyond it the API answered 503)", () => {
  it("refuses more than $1,000,000, naming the limit", () => {
    for (const amount of ["1000000.01", "9999999999999", "1234567890123.123456789012"]) {
      expect(creditAmountProblem(amount)).toMatch(/at most \$1,000,000/);
    }
  });
});

describe("newIdempotencyKey", () => {
  it("is new each time and fits the header's rule", () => {
    const a = newIdempotencyKey();
    expect(a).not.toBe(newIdempotencyKey());
    expect(a).toMatch(/^[\x21-\x7e]{1,200}$/);
  });
});
