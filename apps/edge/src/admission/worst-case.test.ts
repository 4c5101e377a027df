import { describe, expect, it } from "vitest";
import { testEndpoint, testModel } from "../test/catalog.js";
import { endpointWorstCase, estimatePromptTokens, IMAGE_TOKENS_BOUND, worstCaseCost } from "./worst-case.js";

const input = { promptTokens: 100, maxTokens: undefined, choices: 1, imageCount: 0 };

describe("estimatePromptTokens", () => {
  it("over-estimates: two UTF-8 bytes per token plus message framing (images are held apart)", () => {
    expect(estimatePromptTokens({ texts: ["abcd"], messageCount: 1, imageCount: 0 })).toBe(2 + 3 + 3);
    // "é" is two bytes; "👋" four.
    expect(estimatePromptTokens({ texts: ["é👋"], messageCount: 2, imageCount: 0 })).toBe(3 + 6 + 3);
    expect(estimatePromptTokens({ texts: [], messageCount: 1, imageCount: 2 })).toBe(3 + 3);
  });
});

describe("endpointWorstCase", () => {
  // 1 and 2 USD per million tokens = 1,000,000 and 2,000,000 pico per token.
  const endpoint = testEndpoint("p", { prompt: "1", completion: "2", maxCompletionTokens: 1_000 });

  it("is prompt estimate × prompt price + the endpoint's max output × completion price by default", () => {
    expect(endpointWorstCase(endpoint, input)).toBe(100n * 1_000_000n + 1_000n * 2_000_000n);
  });

  it("uses max_tokens when given, capped at the endpoint's maximum, and multiplies by n", () => {
    expect(endpointWorstCase(endpoint, { ...input, maxTokens: 50 })).toBe(
      100n * 1_000_000n + 50n * 2_000_000n,
    );
    expect(endpointWorstCase(endpoint, { ...input, maxTokens: 5_000 })).toBe(
      100n * 1_000_000n + 1_000n * 2_000_000n,
    );
    expect(endpointWorstCase(endpoint, { ...input, maxTokens: 50, choices: 3 })).toBe(
      100n * 1_000_000n + 150n * 2_000_000n,
    );
  });

  it("falls back to the rest of the context when the catalogue lists no maximum output", () => {
    const open = testEndpoint("p", { maxCompletionTokens: 0, contextLength: 4_100 });
    expect(endpointWorstCase(open, input)).toBe(100n * 1_000_000n + 4_000n * 2_000_000n);
  });

  it("takes the dearest input and output prices and adds request and image prices", () => {
    const dear = testEndpoint("p", {
      maxCompletionTokens: 10,
      pricing: {
        promptPico: 1n,
        completionPico: 2n,
        cacheWritePico: 5n,
        reasoningPico: 7n,
        cacheReadPico: 0n,
        requestPico: 1_000n,
        imagePico: 100n,
        audioPico: 0n,
        audioOutputPico: 0n,
      },
    });
    // Two images: the per-image price, and their tokens at the bound (capped at the context) at the
    // dearest input price.
    const imageTokens = BigInt(Math.min(dear.contextLength, 2 * IMAGE_TOKENS_BOUND));
    expect(endpointWorstCase(dear, { ...input, imageCount: 2 })).toBe(
      100n * 5n + 10n * 7n + 1_000n + 200n + imageTokens * 5n,
    );
  });
});

describe("worstCaseCost", () => {
  it("is the largest worst case over every attempt in the plan", () => {
    const cheap = testModel("a/cheap", [testEndpoint("x", { prompt: "1", completion: "1" })]);
    const dear = testModel("a/dear", [testEndpoint("y", { prompt: "10", completion: "10" })]);
    const attempts = [cheap, dear].map((model) => ({ model, endpoint: model.endpoints[0]! }));
    expect(worstCaseCost(attempts, input)).toBe(endpointWorstCase(dear.endpoints[0]!, input));
    expect(worstCaseCost([], input)).toBe(0n);
  });

  it("holds a BYOK attempt at its fee only, unless the key's limit counts BYOK spend", () => {
    const model = testModel("a/m", [testEndpoint("x", { prompt: "10", completion: "10" })]);
    const endpoint = model.endpoints[0]!;
    const full = endpointWorstCase(endpoint, input);
    const own = { model, endpoint, byok: { credentialId: "byok_1" } };
    const gateway = { model, endpoint };
    const charge = (byokFeePercent: number, includeByok: boolean) => ({
      policy: { byokFeePercent },
      includeByok,
    });
    expect(worstCaseCost([own], input, charge(0, false))).toBe(0n);
    expect(worstCaseCost([own], input, charge(10, false))).toBe(full / 10n);
    // The one hold is also checked against a limit that counts the provider's price.
    expect(worstCaseCost([own], input, charge(10, true))).toBe(full);
    // A fallback on the gateway's key would be charged in full.
    expect(worstCaseCost([own, gateway], input, charge(0, false))).toBe(full);
    expect(worstCaseCost([own], input)).toBe(full);
  });
});
