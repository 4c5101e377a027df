import { GatewayError } from "@gw/errors";
import { describe, expect, it } from "vitest";
import { parseChatRequest, requestedMaxTokens } from "./chat-request.js";

const valid = { model: "openai/gpt-4o-mini", messages: [{ role: "user", content: "hi" }] };

function parseError(body: unknown): GatewayError {
  try {
    parseChatRequest(body);
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error("expected a validation error");
}

describe("chat request schema", () => {
  it("accepts the spec's minimal body and keeps unknown fields for the upstream", () => {
    const parsed = parseChatRequest({ ...valid, logit_bias: { "42": 1 }, service_tier: "auto" });
    expect(parsed.model).toBe("openai/gpt-4o-mini");
    expect(parsed.logit_bias).toEqual({ "42": 1 });
    expect(parsed.service_tier).toBe("auto");
  });

  it("accepts multi-part content, assistant tool calls without content and tool results", () => {
    const parsed = parseChatRequest({
      model: "m/x",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "look" },
            { type: "image_url", image_url: { url: "x" } },
          ],
        },
        {
          role: "assistant",
          tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }],
        },
        { role: "tool", tool_call_id: "c1", content: "42" },
      ],
    });
    expect(parsed.messages).toHaveLength(3);
  });

  it.each([
    [{ messages: valid.messages }, "model"],
    [{ model: "", messages: valid.messages }, "model"],
    [{ model: "m/x", messages: [] }, "messages"],
    [{ model: "m/x", messages: "hi" }, "messages"],
    [{ model: "m/x", messages: [{ role: "wizard", content: "x" }] }, "messages[0].role"],
    [{ model: "m/x", messages: [{ role: "user" }] }, "messages[0].content"],
    [{ model: "m/x", messages: [{ role: "user", content: 5 }] }, "messages[0].content"],
    [{ model: "m/x", messages: [{ role: "tool", content: "x" }] }, "messages[0].tool_call_id"],
    [{ ...valid, temperature: 3 }, "temperature"],
    [{ ...valid, max_tokens: 0 }, "max_tokens"],
    [{ ...valid, max_completion_tokens: 1.5 }, "max_completion_tokens"],
    [{ ...valid, stream: "yes" }, "stream"],
    [{ ...valid, models: ["a/b", 3] }, "models[1]"],
    [{ ...valid, provider: { order: "openai" } }, "provider.order"],
    [{ ...valid, provider: { sort: "cheapest" } }, "provider.sort"],
    [{ ...valid, provider: { prefer: ["x"] } }, "provider"],
  ])("rejects %j with a 400 naming %s", (body, field) => {
    const error = parseError(body);
    expect(error.status).toBe(400);
    expect(error.type).toBe("invalid_request_error");
    expect(error.message.startsWith(`${field}:`)).toBe(true);
    expect(error.metadata).toEqual({ field });
  });

  it("rejects a missing or non-object body as `body`", () => {
    expect(parseError(undefined).message).toMatch(/^body:/);
    expect(parseError([valid]).message).toMatch(/^body:/);
    expect(parseError("text").message).toMatch(/^body:/);
  });

  it("prefers max_completion_tokens over the deprecated max_tokens", () => {
    expect(
      requestedMaxTokens(parseChatRequest({ ...valid, max_tokens: 10, max_completion_tokens: 20 })),
    ).toBe(20);
    expect(requestedMaxTokens(parseChatRequest({ ...valid, max_tokens: 10 }))).toBe(10);
    expect(requestedMaxTokens(parseChatRequest(valid))).toBeUndefined();
  });
});
