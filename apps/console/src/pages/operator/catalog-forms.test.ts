import { describe, expect, it } from "vitest";
import { detectFormat, diffValue, EMPTY_PRICES, highPriceText, pricingBody } from "./catalog-forms";

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

describe("highPriceText (issue 34: the prices the API asks to confirm)", () => {
  it("shows per-token prices per 1M tokens and per-request prices as they are, exactly", () => {
    expect(highPriceText({ target: "a@p", price: "prompt", usd: "1000000" })).toBe(
      "a@p prompt: $1,000,000,000,000 per 1M tokens",
    );
    expect(highPriceText({ target: "b@q", price: "completion", usd: "0.0015" })).toBe(
      "b@q completion: $1,500 per 1M tokens",
    );
    expect(highPriceText({ target: "c@r", price: "request", usd: "12.5" })).toBe(
      "c@r request: $12.5 per request",
    );
  });
});
