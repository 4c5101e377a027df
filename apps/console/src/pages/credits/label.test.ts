import { describe, expect, it } from "vitest";
import { balance, signedUsd, transactionLabel } from "./label";

describe("credit transactions' words", () => {
  it("names each kind, a usage day with its entry count", () => {
    expect(transactionLabel({ kind: "purchase", amount: 10, entries: 1 })).toBe("Purchase");
    expect(transactionLabel({ kind: "grant", amount: 2, entries: 1 })).toBe("Credit grant");
    expect(transactionLabel({ kind: "usage", amount: -0.7, entries: 1234 })).toBe("Usage: 1,234 entries");
    expect(transactionLabel({ kind: "usage", amount: -1, entries: 1 })).toBe("Usage: 1 entry");
  });
  it("signs amounts and rounds the balance to pico-dollars", () => {
    expect(signedUsd(10)).toMatch(/^\+\$10/);
    expect(signedUsd(-0.7)).toMatch(/^−\$0\.70?/);
    expect(balance({ total_credits: 0.3, total_usage: 0.1 })).toBe(0.2);
  });
});
