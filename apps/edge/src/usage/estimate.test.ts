import { describe, expect, it } from "vitest";
import { estimateUsage } from "./estimate.js";
import { countTokens } from "./tokenizer.js";

describe("token estimates", () => {
  it("counts with the real o200k tokenizer", async () => {
    expect(await countTokens(["Hello world", "", "<|endoftext|>"])).toEqual([2, 0, 7]);
  });

  it("adds OpenAI's per-message framing to the prompt and counts the completion as is", async () => {
    const usage = await estimateUsage({ texts: ["Hello world"], messageCount: 1, imageCount: 0 }, [
      "Hello",
      " world",
    ]);
    expect(usage).toEqual({
      promptTokens: 2 + 3 + 3,
      completionTokens: 2,
      cachedTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
    });
  });

  it("never estimates a non-empty exchange as zero", async () => {
    const usage = await estimateUsage({ texts: [], messageCount: 1, imageCount: 1 }, []);
    expect(usage.promptTokens).toBeGreaterThan(0);
  });
});
