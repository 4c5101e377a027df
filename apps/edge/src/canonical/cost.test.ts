import { listPrice } from "@gw/catalog";
import { picoToDecimalString, picoToUsdNumber, usdToPico } from "@gw/money";
import { describe, expect, it } from "vitest";
import { computeCost, withWebSearch, ZERO_COST } from "./cost.js";
import { normaliseUsage, type TokenUsage } from "./tokens.js";

const usage = (parts: Partial<TokenUsage>): TokenUsage => ({
  promptTokens: 0,
  completionTokens: 0,
  cachedTokens: 0,
  cacheWriteTokens: 0,
  reasoningTokens: 0,
  ...parts,
});

describe("computeCost", () => {
  it("prices prompt and completion tokens exactly in pico-dollars", () => {
    // gpt-4o-mini list price: 0.15 / 0.60 USD per million tokens.
    const cost = computeCost(
      listPrice({ prompt: "0.15", completion: "0.60" }),
      usage({ promptTokens: 1234, completionTokens: 567 }),
    );
    expect(cost.promptPico).toBe(1234n * 150_000n);
    expect(cost.completionPico).toBe(567n * 600_000n);
    expect(picoToDecimalString(cost.totalPico)).toBe("0.000525300000");
  });

  it("stays exact where binary floats drift", () => {
    const pricing = listPrice({ prompt: "0.1", completion: "0.2" });
    let total = 0n;
    let float = 0;
    for (let request = 0; request < 10_000; request++) {
      total += computeCost(pricing, usage({ promptTokens: 3, completionTokens: 7 })).totalPico;
      float += 3 * 0.1e-6 + 7 * 0.2e-6;
    }
    expect(total).toBe(usdToPico("0.017"));
    expect(float).not.toBe(0.017);
  });

  it("charges cached reads, cache writes and reasoning at their own prices when listed", () => {
    const pricing = listPrice({
      prompt: "3",
      completion: "15",
      cacheRead: "0.30",
      cacheWrite: "3.75",
      reasoning: "20",
    });
    const cost = computeCost(
      pricing,
      usage({
        promptTokens: 1000,
        cachedTokens: 600,
        cacheWriteTokens: 100,
        completionTokens: 50,
        reasoningTokens: 30,
      }),
    );
    expect(cost.promptPico).toBe(300n * 3_000_000n + 600n * 300_000n + 100n * 3_750_000n);
    expect(cost.completionPico).toBe(20n * 15_000_000n + 30n * 20_000_000n);
  });

  it("reports the cache discount: reads save, Anthropic's dearer 5-minute writes cost extra", () => {
    // claude-sonnet-4 list prices: 3 in, 0.30 cache read, 3.75 cache write (USD per million).
    const pricing = listPrice({ prompt: "3", completion: "15", cacheRead: "0.30", cacheWrite: "3.75" });
    const read = computeCost(pricing, usage({ promptTokens: 1000, cachedTokens: 900 }));
    expect(read.cacheDiscountPico).toBe(900n * (3_000_000n - 300_000n));
    expect(read.promptPico + (read.cacheDiscountPico ?? 0n)).toBe(1000n * 3_000_000n);
    const written = computeCost(pricing, usage({ promptTokens: 1000, cacheWriteTokens: 1000 }));
    expect(written.cacheDiscountPico).toBe(-1000n * 750_000n);
    const plain = computeCost(
      listPrice({ prompt: "1", completion: "2" }),
      usage({ promptTokens: 10, cachedTokens: 5 }),
    );
    expect(plain.cacheDiscountPico).toBe(0n);
  });

  it("prices Anthropic's 1-hour cache writes at twice the input price, 5-minute ones at the listed write price", () => {
    const pricing = listPrice({ prompt: "3", completion: "15", cacheRead: "0.30", cacheWrite: "3.75" });
    const cost = computeCost(
      pricing,
      usage({ promptTokens: 1000, cacheWriteTokens: 800, cacheWriteLongTokens: 500 }),
    );
    expect(cost.promptPico).toBe(200n * 3_000_000n + 300n * 3_750_000n + 500n * 6_000_000n);
    expect(cost.cacheDiscountPico).toBe(-300n * 750_000n - 500n * 3_000_000n);
    // Without a cache-write price (implicit caching) there are no TTL'd writes to price higher.
    const implicit = computeCost(
      listPrice({ prompt: "1", completion: "1" }),
      usage({ promptTokens: 10, cacheWriteTokens: 10, cacheWriteLongTokens: 10 }),
    );
    expect(implicit.promptPico).toBe(10n * 1_000_000n);
  });

  it("charges special tokens at the plain price when the catalogue lists no separate price", () => {
    const pricing = listPrice({ prompt: "1", completion: "2" });
    const special = computeCost(
      pricing,
      usage({ promptTokens: 100, cachedTokens: 40, completionTokens: 10, reasoningTokens: 5 }),
    );
    const plain = computeCost(pricing, usage({ promptTokens: 100, completionTokens: 10 }));
    expect(special).toEqual(plain);
  });

  it("adds the per-request price and reports the USD number only for rendering", () => {
    const cost = computeCost(listPrice({ prompt: "0", request: "0.005" }), usage({ promptTokens: 10 }));
    expect(cost.requestPico).toBe(5_000_000_000n);
    expect(cost.totalPico).toBe(5_000_000_000n);
    expect(picoToUsdNumber(cost.totalPico)).toBe(0.005);
  });

  it("charges each prompt image at the per-image price, as prompt cost", () => {
    const pricing = listPrice({ prompt: "0.15", completion: "0.60", image: "0.001445" });
    const withImages = computeCost(pricing, usage({ promptTokens: 100 }), 2);
    const withoutImages = computeCost(pricing, usage({ promptTokens: 100 }));
    expect(withImages.promptPico - withoutImages.promptPico).toBe(2n * usdToPico("0.001445"));
    expect(withImages.totalPico).toBe(100n * 150_000n + 2_890_000_000n);
  });

  it("is zero without pricing and never negative for inconsistent provider counts", () => {
    expect(computeCost(undefined, usage({ promptTokens: 5 })).totalPico).toBe(0n);
    const odd = computeCost(
      listPrice({ prompt: "1", completion: "1" }),
      usage({ promptTokens: 5, cachedTokens: 9, completionTokens: 2, reasoningTokens: 7 }),
    );
    expect(odd.promptPico).toBeGreaterThanOrEqual(0n);
    expect(odd.completionPico).toBe(2n * 1_000_000n);
  });
});

describe("withWebSearch", () => {
  const model = computeCost(listPrice({ prompt: "1", completion: "2" }), usage({ promptTokens: 10 }));

  it("adds the search to the total the charge uses, and names it", () => {
    const searched = withWebSearch(model, 12_000_000_000n);
    expect(searched).toEqual({
      ...model,
      webSearchPico: 12_000_000_000n,
      totalPico: model.totalPico + 12_000_000_000n,
    });
    expect(searched.promptPico).toBe(model.promptPico);
  });

  it("leaves a cost without a search as it was (no zero field)", () => {
    expect(withWebSearch(model, 0n)).toBe(model);
    expect(withWebSearch(ZERO_COST, 0n)).toBe(ZERO_COST);
  });
});

describe("normaliseUsage", () => {
  it("clamps parts to their whole and drops negatives and fractions", () => {
    expect(
      normaliseUsage(
        usage({
          promptTokens: 10.7,
          cachedTokens: 20,
          cacheWriteTokens: 5,
          completionTokens: -3,
          reasoningTokens: 4,
        }),
      ),
    ).toEqual(
      usage({
        promptTokens: 10,
        cachedTokens: 10,
        cacheWriteTokens: 0,
        completionTokens: 0,
        reasoningTokens: 0,
      }),
    );
  });
});
