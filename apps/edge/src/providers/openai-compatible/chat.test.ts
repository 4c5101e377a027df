import { describe, expect, it } from "vitest";
import { parseChatRequest } from "../../canonical/chat-request.js";
import { chatRequestBody, parseCompletion } from "./chat.js";

const request = parseChatRequest({
  model: "openai/gpt-4o-mini",
  models: ["meta/llama"],
  provider: { order: ["openai"] },
  messages: [{ role: "user", content: "hi" }],
  temperature: 0.2,
  user: "u-1",
});

describe("chatRequestBody", () => {
  it("sends the provider's model name and drops the gateway's routing fields", () => {
    const body = JSON.parse(chatRequestBody(request, "gpt-4o-mini", false));
    expect(body).toEqual({
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "hi" }],
      temperature: 0.2,
      user: "u-1",
    });
  });

  it("always asks a stream for usage, keeping the client's other stream options", () => {
    const streaming = parseChatRequest({
      ...request,
      stream: true,
      stream_options: { include_obfuscation: false },
    });
    const body = JSON.parse(chatRequestBody(streaming, "gpt-4o-mini", true));
    expect(body.stream).toBe(true);
    expect(body.stream_options).toEqual({ include_obfuscation: false, include_usage: true });
    const noUsage = parseChatRequest({ ...request, stream: true, stream_options: { include_usage: false } });
    expect(JSON.parse(chatRequestBody(noUsage, "m", true)).stream_options).toEqual({ include_usage: true });
  });

  it("leaves stream_options out of a non-streamed call", () => {
    const body = JSON.parse(
      chatRequestBody(
        parseChatRequest({ ...request, stream: false, stream_options: { include_usage: true } }),
        "m",
        false,
      ),
    );
    expect(body.stream).toBe(false);
    expect("stream_options" in body).toBe(false);
  });
});

describe("chatRequestBody and reasoning signatures", () => {
  it("drops Anthropic and Gemini signatures but keeps other reasoning details", () => {
    const body = JSON.parse(
      chatRequestBody(
        parseChatRequest({
          model: "m",
          messages: [
            { role: "user", content: "hi" },
            {
              role: "assistant",
              content: "ok",
              reasoning_details: [
                { type: "reasoning.text", signature: "s", format: "anthropic-claude-v1" },
                { type: "reasoning.encrypted", data: "d", id: "c", format: "google-gemini-v1" },
                { type: "reasoning.summary", summary: "x", format: "openai-responses-v1" },
              ],
            },
            { role: "assistant", content: "again", reasoning_details: [{ format: "google-gemini-v1" }] },
          ],
        }),
        "m",
        false,
      ),
    );
    expect(body.messages[1].reasoning_details).toEqual([
      { type: "reasoning.summary", summary: "x", format: "openai-responses-v1" },
    ]);
    expect("reasoning_details" in body.messages[2]).toBe(false);
  });
});

describe("parseCompletion", () => {
  it("reads id, usage and finish reason from an OpenAI completion", () => {
    const parsed = parseCompletion({
      id: "chatcmpl-1",
      object: "chat.completion",
      choices: [{ index: 0, message: { role: "assistant", content: "x" }, finish_reason: "length" }],
      usage: {
        prompt_tokens: 3,
        completion_tokens: 1,
        total_tokens: 4,
        completion_tokens_details: { reasoning_tokens: 1 },
      },
    });
    expect("retryable" in parsed).toBe(false);
    if ("retryable" in parsed) return;
    expect(parsed.upstreamId).toBe("chatcmpl-1");
    expect(parsed.nativeFinishReason).toBe("length");
    expect(parsed.usage).toEqual({
      promptTokens: 3,
      completionTokens: 1,
      cachedTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 1,
    });
  });

  it("reports missing usage as undefined, not zero", () => {
    const parsed = parseCompletion({ choices: [{ message: { content: "x" }, finish_reason: "stop" }] });
    expect("retryable" in parsed ? "failure" : parsed.usage).toBeUndefined();
  });

  it("treats a body that is not a completion as a retryable provider failure", () => {
    expect(parseCompletion({ hello: "world" })).toMatchObject({ kind: "protocol", retryable: true });
  });
});
