import { describe, expect, it } from "vitest";
import type { ChatMessage, ChatRequest } from "./chat-request.js";
import { middleOut, TRUNCATION_MARK } from "./middle-out.js";
import { promptText, typicalPromptTokens } from "./prompt-text.js";

// OpenRouter's middle-out transform: turns are removed from the middle, then text is cut from the
// middle of what is left, until the prompt's typical estimate fits the budget.

const tokens = (request: ChatRequest) => typicalPromptTokens(promptText(request));
const turn = (role: "user" | "assistant", index: number): ChatMessage => ({
  role,
  content: `turn ${index} ${"word ".repeat(100)}`,
});
const conversation = (count: number): ChatRequest => ({
  model: "m",
  messages: [
    { role: "system", content: "You are terse." },
    ...Array.from({ length: count }, (_, index) => turn(index % 2 === 0 ? "user" : "assistant", index)),
  ],
});

describe("middleOut", () => {
  it("leaves a prompt that fits as it is (the same object)", () => {
    const request = conversation(4);
    expect(middleOut(request, tokens(request))).toBe(request);
  });

  it("removes turns from the middle, keeping the system prompt and the last question", () => {
    const request = conversation(21);
    const budget = Math.floor(tokens(request) / 2);
    const compressed = middleOut(request, budget);
    expect(tokens(compressed)).toBeLessThanOrEqual(budget);
    const contents = compressed.messages.map((message) => String(message.content).slice(0, 8));
    expect(contents[0]).toBe("You are ");
    expect(contents.at(-1)).toBe("turn 20 ");
    expect(contents).toContain("turn 0 w");
    // What went was the middle: turn 10 is gone, the ends are kept.
    expect(contents).not.toContain("turn 10 ");
    expect(compressed.messages.length).toBeLessThan(request.messages.length);
    expect(request.messages).toHaveLength(22);
  });

  it("removes an assistant's tool calls together with their results", () => {
    const call = { id: "c1", type: "function", function: { name: "f", arguments: "{}" } };
    const request: ChatRequest = {
      model: "m",
      messages: [
        turn("user", 0),
        turn("assistant", 1),
        { role: "assistant", content: null, tool_calls: [call] },
        { role: "tool", tool_call_id: "c1", content: "x".repeat(4_000) },
        turn("assistant", 2),
        turn("user", 3),
      ],
    };
    const compressed = middleOut(request, tokens(request) - 500);
    const roles = compressed.messages.map((message) => message.role);
    expect(roles).not.toContain("tool");
    expect(compressed.messages.some((message) => message.tool_calls !== undefined)).toBe(false);
  });

  it("cuts the middle out of the longest text when the first and last turns alone do not fit", () => {
    const request: ChatRequest = {
      model: "m",
      messages: [
        { role: "system", content: "short" },
        { role: "user", content: [{ type: "text", text: `BEGIN ${"a".repeat(20_000)} END` }] },
      ],
    };
    const budget = 1_000;
    const compressed = middleOut(request, budget);
    expect(tokens(compressed)).toBeLessThanOrEqual(budget);
    const parts = compressed.messages[1]?.content as unknown as { text: string }[];
    expect(parts[0]?.text.startsWith("BEGIN ")).toBe(true);
    expect(parts[0]?.text.endsWith(" END")).toBe(true);
    expect(parts[0]?.text).toContain(TRUNCATION_MARK);
    expect(compressed.messages[0]?.content).toBe("short");
  });
});
