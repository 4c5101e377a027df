import { describe, expect, it } from "vitest";
import { detectFormat, diffValue, EMPTY_PRICES, pricingBody, suspectPrices } from "./catalog-forms";

describe("pricingBody", () => {
  it("converts the filled-in prices per million to USD per token, leaving the others out", () => {
    expect(pricingBody({ ...EMPTY_PRICES, prompt: "0.15", input_cache_read: " 0.075 " })).toEqual({
      ok: true,
      pricing: { prompt: "0.00000015", input_cache_read: "0.000000075" },
    });
  });

  it("names the field with a bad amount", () => {
    expect(pricingBody({ ...EMPTY_PRICES, prompt: "1", completion: "-2" })).toEqual({
      ok: false,
      field: "completion",
      message: "Completion (USD per 1M tokens): enter a non-negative amount like 0.15.",
    });
  });

  it("refuses an empty form", () => {
    expect(pricingBody(EMPTY_PRICES).ok).toBe(false);
  });
});

describe("detectFormat", () => {
  it("tells OpenRouter's list from LiteLLM's map, and non-JSON from both", () => {
    expect(detectFormat('{"data": [{"id": "a/b"}]}')).toBe("openrouter");
    expect(detectFormat('{"gpt-4o": {"litellm_provider": "openai"}}')).toBe("litellm");
    expect(detectFormat("[1, 2]")).toBeUndefined();
    expect(detectFormat("not json")).toBeUndefined();
  });
});

describe("diffValue", () => {
  it("shows strings plainly, absence as a dash, the rest as JSON", () => {
    expect(diffValue("0.0000003")).toBe("0.0000003");
    expect(diffValue(null)).toBe("—");
    expect(diffValue(undefined)).toBe("—");
    expect(diffValue(128000)).toBe("128000");
    expect(diffValue({ disabled: true })).toBe('{"disabled":true}');
  });
});

describe("suspectPrices (issue 34: $10^12 per 1M tokens was applied without a warning)", () => {
  it("finds changed and new prices above $1,000 per 1M tokens, in USD per 1M", () => {
    const found = suspectPrices([
      { target: "a@p", field: "pricing.promptPico", old: "300000", new: "1000000000000000000" },
      { target: "a@p", field: "pricing.completion", old: "1", new: "600000000" },
      {
        target: "b@q",
        field: "*",
        old: null,
        new: { upstreamModel: "b", "pricing.completion": "2000000000" },
      },
      { target: "c", field: "name", old: "x", new: "y" },
    ]);
    expect(found).toEqual([
      { target: "a@p", price: "prompt", perMillion: 1e12 },
      { target: "b@q", price: "completion", perMillion: 2000 },
    ]);
  });
});
