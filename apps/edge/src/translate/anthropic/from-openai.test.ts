import { describe, expect, it } from "vitest";
import { parseChatRequest } from "../../canonical/chat-request.js";
import { UntranslatableError } from "../untranslatable.js";
import { anthropicRequestBody } from "./from-openai.js";

const weather = {
  type: "function",
  function: {
    name: "get_weather",
    description: "Weather",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
};

describe("anthropicRequestBody (OpenAI → Anthropic golden)", () => {
  it("lifts system prompts, maps images, tools, tool calls and merged tool results", () => {
    const request = parseChatRequest({
      model: "anthropic/claude",
      messages: [
        { role: "system", content: "Be terse." },
        { role: "developer", content: [{ type: "text", text: "Use metric." }] },
        {
          role: "user",
          content: [
            { type: "text", text: "What is this?" },
            { type: "image_url", image_url: { url: "data:image/png;base64,iVBOR" } },
            { type: "image_url", image_url: { url: "https://example.com/a.jpg", detail: "high" } },
          ],
        },
        {
          role: "assistant",
          content: "Checking.",
          tool_calls: [
            {
              id: "call_1",
              type: "function",
              function: { name: "get_weather", arguments: '{"city":"Paris"}' },
            },
            {
              id: "call_2",
              type: "function",
              function: { name: "get_weather", arguments: '{"city":"Rome"}' },
            },
          ],
        },
        { role: "tool", tool_call_id: "call_1", content: "18C" },
        { role: "tool", tool_call_id: "call_2", content: [{ type: "text", text: "25C" }] },
        { role: "user", content: "Thanks" },
      ],
      tools: [weather],
      tool_choice: { type: "function", function: { name: "get_weather" } },
      parallel_tool_calls: false,
      temperature: 1.6,
      top_p: 0.9,
      stop: "END",
      seed: 7,
      frequency_penalty: 0.5,
      user: "u-1",
      max_completion_tokens: 300,
    });
    expect(anthropicRequestBody(request, "claude-sonnet-4", true)).toEqual({
      model: "claude-sonnet-4",
      max_tokens: 300,
      // One message came as parts, so the system prompt stays blocks (not flattened).
      system: [
        { type: "text", text: "Be terse." },
        { type: "text", text: "Use metric." },
      ],
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "What is this?" },
            { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBOR" } },
            { type: "image", source: { type: "url", url: "https://example.com/a.jpg" } },
          ],
        },
        {
          role: "assistant",
          content: [
            { type: "text", text: "Checking." },
            { type: "tool_use", id: "call_1", name: "get_weather", input: { city: "Paris" } },
            { type: "tool_use", id: "call_2", name: "get_weather", input: { city: "Rome" } },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "call_1", content: "18C" },
            { type: "tool_result", tool_use_id: "call_2", content: "25C" },
            { type: "text", text: "Thanks" },
          ],
        },
      ],
      temperature: 1,
      top_p: 0.9,
      stop_sequences: ["END"],
      tools: [
        {
          name: "get_weather",
          description: "Weather",
          input_schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
        },
      ],
      tool_choice: { type: "tool", name: "get_weather", disable_parallel_tool_use: true },
      metadata: { user_id: "u-1" },
      stream: true,
    });
  });

  it("injects a default max_tokens and maps required/none tool choices", () => {
    const base = { model: "m", messages: [{ role: "user", content: "hi" }], tools: [weather] };
    const required = anthropicRequestBody(parseChatRequest({ ...base, tool_choice: "required" }), "c", false);
    expect(required.max_tokens).toBe(4096);
    expect(required.tool_choice).toEqual({ type: "any" });
    expect("stream" in required).toBe(false);
    expect(
      anthropicRequestBody(parseChatRequest({ ...base, tool_choice: "none" }), "c", false).tool_choice,
    ).toEqual({
      type: "none",
    });
  });

  it("sends a json_schema response_format as structured output, and refuses json_object", () => {
    const schema = { type: "object", properties: { a: { type: "string" } }, required: ["a"] };
    const base = { model: "m", messages: [{ role: "user", content: "hi" }] };
    const structured = anthropicRequestBody(
      parseChatRequest({
        ...base,
        response_format: { type: "json_schema", json_schema: { name: "x", schema } },
      }),
      "c",
      false,
    );
    expect(structured.output_config).toEqual({ format: { type: "json_schema", schema } });
    expect(() =>
      anthropicRequestBody(
        parseChatRequest({ ...base, response_format: { type: "json_object" } }),
        "c",
        false,
      ),
    ).toThrow(/response_format json_object/);
    expect(() =>
      anthropicRequestBody(
        parseChatRequest({ ...base, response_format: { type: "json_schema", json_schema: { name: "x" } } }),
        "c",
        false,
      ),
    ).toThrow(/response_format\.json_schema\.schema/);
  });

  it("sends Anthropic thinking signatures back from reasoning_details, and only Anthropic's", () => {
    const body = anthropicRequestBody(
      parseChatRequest({
        model: "m",
        messages: [
          { role: "user", content: "hi" },
          {
            role: "assistant",
            content: "ok",
            reasoning_details: [
              { type: "reasoning.text", text: "hmm", signature: "sig-a", format: "anthropic-claude-v1" },
              { type: "reasoning.encrypted", data: "x", id: "call_9", format: "google-gemini-v1" },
            ],
          },
        ],
      }),
      "c",
      false,
    );
    expect((body.messages as { content: unknown[] }[])[1]?.content[0]).toEqual({
      type: "thinking",
      thinking: "hmm",
      signature: "sig-a",
    });
    expect((body.messages as { content: unknown[] }[])[1]?.content).toHaveLength(2);
  });

  it("refuses what Anthropic cannot express, saying what and why", () => {
    const refuse = (extra: Record<string, unknown>) => () =>
      anthropicRequestBody(
        parseChatRequest({ model: "m", messages: [{ role: "user", content: "hi" }], ...extra }),
        "c",
        false,
      );
    expect(refuse({ n: 2 })).toThrow(UntranslatableError);
    expect(refuse({ n: 2 })).toThrow(/n > 1/);
    expect(
      refuse({
        messages: [
          { role: "user", content: [{ type: "input_audio", input_audio: { data: "x", format: "wav" } }] },
        ],
      }),
    ).toThrow(/messages\[0\]\.content\[0\] \(input_audio wav\).*takes no audio input/);
    expect(refuse({ tools: [{ type: "custom", custom: { name: "x" } }] })).toThrow(/only function tools/);
    expect(
      refuse({
        messages: [
          { role: "user", content: "hi" },
          {
            role: "assistant",
            tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: "{oops" } }],
          },
        ],
      }),
    ).toThrow(/not a JSON object/);
  });
});
