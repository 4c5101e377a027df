import { describe, expect, it } from "vitest";
import { UntranslatableError } from "../untranslatable.js";
import { chatRequestFromMessages, parseMessagesRequest } from "./messages-request.js";

describe("chatRequestFromMessages (Anthropic → OpenAI golden)", () => {
  it("maps system, images, tool use, tool results before text, thinking, sampling and tool choice", () => {
    const request = parseMessagesRequest({
      model: "claude-sonnet-4",
      max_tokens: 256,
      system: [
        { type: "text", text: "Be terse." },
        { type: "text", text: "Use metric." },
      ],
      messages: [
        {
          role: "user",
          content: [
            { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBOR" } },
            { type: "image", source: { type: "url", url: "https://example.com/a.png" } },
            { type: "text", text: "Weather?" },
          ],
        },
        {
          role: "assistant",
          content: [
            { type: "thinking", thinking: "hmm", signature: "sig" },
            { type: "text", text: "Checking." },
            { type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Paris" } },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "toolu_1", content: [{ type: "text", text: "18C" }] },
            { type: "tool_result", tool_use_id: "toolu_2", content: "boom", is_error: true },
            { type: "text", text: "Thanks" },
          ],
        },
      ],
      tools: [{ name: "get_weather", description: "W", input_schema: { type: "object" } }],
      tool_choice: { type: "any", disable_parallel_tool_use: true },
      temperature: 0.5,
      top_k: 5,
      stop_sequences: ["END"],
      stream: true,
      metadata: { user_id: "u-1" },
      provider: { order: ["anthropic"] },
    });
    expect(chatRequestFromMessages(request)).toEqual({
      model: "claude-sonnet-4",
      messages: [
        {
          role: "system",
          content: [
            { type: "text", text: "Be terse." },
            { type: "text", text: "Use metric." },
          ],
        },
        {
          role: "user",
          content: [
            { type: "image_url", image_url: { url: "data:image/png;base64,iVBOR" } },
            { type: "image_url", image_url: { url: "https://example.com/a.png" } },
            { type: "text", text: "Weather?" },
          ],
        },
        {
          role: "assistant",
          content: "Checking.",
          tool_calls: [
            {
              id: "toolu_1",
              type: "function",
              function: { name: "get_weather", arguments: '{"city":"Paris"}' },
            },
          ],
          reasoning_details: [
            { type: "reasoning.text", text: "hmm", signature: "sig", format: "anthropic-claude-v1" },
          ],
        },
        { role: "tool", tool_call_id: "toolu_1", content: "18C" },
        { role: "tool", tool_call_id: "toolu_2", content: "Error: boom" },
        { role: "user", content: "Thanks" },
      ],
      provider: { order: ["anthropic"] },
      max_tokens: 256,
      stream: true,
      temperature: 0.5,
      top_k: 5,
      stop: ["END"],
      tools: [
        {
          type: "function",
          function: { name: "get_weather", description: "W", parameters: { type: "object" } },
        },
      ],
      tool_choice: "required",
      parallel_tool_calls: false,
      user: "u-1",
    });
  });

  it("maps a named tool choice and refuses server tools and blocks with no translation", () => {
    const base = { model: "m", max_tokens: 5, messages: [{ role: "user", content: "hi" }] };
    expect(
      chatRequestFromMessages(
        parseMessagesRequest({ ...base, tools: [{ name: "f" }], tool_choice: { type: "tool", name: "f" } }),
      ).tool_choice,
    ).toEqual({ type: "function", function: { name: "f" } });
    expect(() =>
      chatRequestFromMessages(
        parseMessagesRequest({ ...base, tools: [{ type: "web_search_20250305", name: "web_search" }] }),
      ),
    ).toThrow(UntranslatableError);
    expect(() =>
      chatRequestFromMessages(
        parseMessagesRequest({
          ...base,
          messages: [{ role: "user", content: [{ type: "container_upload", file_id: "x" }] }],
        }),
      ),
    ).toThrow(/messages\[0\]\.content\[0\] \(type container_upload\)/);
  });

  it("requires max_tokens and valid roles, naming the field", () => {
    expect(() => parseMessagesRequest({ model: "m", messages: [{ role: "user", content: "x" }] })).toThrow(
      /max_tokens/,
    );
    expect(() =>
      parseMessagesRequest({ model: "m", max_tokens: 1, messages: [{ role: "system", content: "x" }] }),
    ).toThrow(/messages\[0\]\.role/);
  });
});
