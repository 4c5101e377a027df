import { describe, expect, it } from "vitest";
import { chargedPico, DEFAULT_CHARGE_POLICY, isValidByokFeePercent } from "./charge.js";

/** A catalogue price as the edge's computeCost returns it; the charge reads only its total. */
const catalogueCost = (promptPico: bigint, completionPico: bigint, requestPico = 0n) => ({
  totalPico: promptPico + completionPico + requestPico,
});

const price = catalogueCost(300_000n, 700_000n, 50_000n);

describe("chargedPico (BYOK billing, api-decisions)", () => {
  it("charges the catalogue price for a request on the gateway's credential", () => {
    expect(chargedPico(price, false, { byokFeePercent: 5 })).toBe(1_050_000n);
  });

  it("charges nothing for a BYOK request at the default fee of 0", () => {
    expect(chargedPico(price, true, { byokFeePercent: 0 })).toBe(0n);
  });

  it("the default policy is a fee of 0: a BYOK request is free, any other pays the catalogue price", () => {
    expect(DEFAULT_CHARGE_POLICY).toEqual({ byokFeePercent: 0 });
    expect(chargedPico(price, true, DEFAULT_CHARGE_POLICY)).toBe(0n);
    expect(chargedPico(price, false, DEFAULT_CHARGE_POLICY)).toBe(1_050_000n);
  });

  it("charges only the fee percent of the provider's price for a BYOK request, rounded down", () => {
    expect(chargedPico(price, true, { byokFeePercent: 5 })).toBe(52_500n);
    expect(chargedPico(catalogueCost(1n, 2n), true, { byokFeePercent: 50 })).toBe(1n);
    expect(chargedPico(price, true, { byokFeePercent: 2.5 })).toBe(26_250n);
  });

  it("accepts fee percents in [0, 100] only", () => {
    expect([0, 5.5, 100].map(isValidByokFeePercent)).toEqual([true, true, true]);
    expect([-1, 100.5, Number.NaN].map(isValidByokFeePercent)).toEqual([false, false, false]);
  });
});
