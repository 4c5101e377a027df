import { describe, expect, it } from "vitest";
import { normaliseFinishReason } from "./finish-reason.js";

describe("normaliseFinishReason", () => {
  it.each([
    ["stop", "stop"],
    ["length", "length"],
    ["tool_calls", "tool_calls"],
    ["function_call", "tool_calls"],
    ["content_filter", "content_filter"],
    ["end_turn", "stop"],
    ["stop_sequence", "stop"],
    ["max_tokens", "length"],
    ["tool_use", "tool_calls"],
    ["refusal", "content_filter"],
    ["model_context_window_exceeded", "length"],
    ["STOP", "stop"],
    ["MAX_TOKENS", "length"],
    ["SAFETY", "content_filter"],
    ["RECITATION", "content_filter"],
    ["IMAGE_SAFETY", "content_filter"],
    ["eos", "stop"],
    ["error", "error"],
    ["something_new", "stop"],
  ])("%s → %s", (native, expected) => {
    expect(normaliseFinishReason(native)).toBe(expected);
  });

  it("leaves a missing reason undecided", () => {
    expect(normaliseFinishReason(null)).toBeUndefined();
    expect(normaliseFinishReason(undefined)).toBeUndefined();
    expect(normaliseFinishReason("")).toBeUndefined();
  });
});
