import { describe, expect, it } from "vitest";
import { ZERO_COST } from "../../canonical/cost.js";
import { renderCompletion } from "./chat-response.js";

const identity = { generationId: "gen-1", model: "openai/gpt-4o-mini", provider: "openai", created: 100 };
const usage = {
  usage: { promptTokens: 3, completionTokens: 2, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
  cost: ZERO_COST,
  chargedPico: 0n,
  estimated: false,
  isByok: false,
};
const choices = [{ index: 0, message: { role: "assistant", content: "hi" }, finish_reason: "stop" }];

describe("renderCompletion", () => {
  it("keeps the provider's system_fingerprint and names the provider that served it", () => {
    const rendered = renderCompletion({ id: "up", system_fingerprint: "fp_abc", choices }, identity, usage);
    expect(rendered).toMatchObject({
      id: "gen-1",
      object: "chat.completion",
      model: "openai/gpt-4o-mini",
      provider: "openai",
      system_fingerprint: "fp_abc",
    });
  });

  it("sends system_fingerprint null when the provider sent none (OpenRouter's SDK requires the field)", () => {
    const rendered = renderCompletion({ choices }, identity, usage);
    expect(rendered).toHaveProperty("system_fingerprint", null);
    expect(rendered.provider).toBe("openai");
  });
});
