import { describe, expect, it } from "vitest";
import { renderUsage } from "./usage.js";

const usage = {
  promptTokens: 10,
  completionTokens: 5,
  cachedTokens: 0,
  cacheWriteTokens: 0,
  reasoningTokens: 0,
};
const cost = {
  promptPico: 1_500_000n,
  completionPico: 3_000_000n,
  requestPico: 500_000n,
  totalPico: 5_000_000n,
};

describe("renderUsage", () => {
  it("reports a BYOK request's charge as cost and the provider's price as the upstream cost", () => {
    const body = renderUsage({ usage, cost, chargedPico: 250_000n, estimated: false, isByok: true });
    expect(body.cost).toBe(0.00000025);
    expect(body.is_byok).toBe(true);
    expect(body.cost_details).toEqual({
      upstream_inference_cost: 0.000005,
      // The per-request price is in the prompt part, as in the usage event: the parts add up.
      upstream_inference_prompt_cost: 0.000002,
      upstream_inference_completions_cost: 0.000003,
    });
  });

  it("reports what caching saved, negative when a cache write cost more than plain input", () => {
    const cached = { ...cost, cacheDiscountPico: 2_700_000n };
    expect(
      renderUsage({ usage, cost: cached, chargedPico: 0n, estimated: false, isByok: false }),
    ).toMatchObject({ cost_details: { cache_discount: 0.0000027 } });
    const written = { ...cost, cacheDiscountPico: -750_000n };
    expect(
      renderUsage({ usage, cost: written, chargedPico: 0n, estimated: false, isByok: false }),
    ).toMatchObject({ cost_details: { cache_discount: -0.00000075 } });
  });
});
