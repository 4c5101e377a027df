import { GatewayError } from "@gw/errors";
import { describe, expect, it } from "vitest";
import { translating } from "../untranslatable.js";
import { chatRequestFromResponses, responsesEcho } from "./request.js";
import { parseResponsesRequest } from "./request-schema.js";

function translate(body: Record<string, unknown>) {
  return translating(() => chatRequestFromResponses(parseResponsesRequest(body)));
}

function refusal(body: Record<string, unknown>): GatewayError {
  try {
    translate(body);
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("Responses request → canonical chat request", () => {
  it("turns a string input and instructions into a system and a user message", () => {
    const chat = translate({ model: "openai/gpt-4o-mini", input: "hello", instructions: "Be terse." });
    expect(chat.messages).toEqual([
      { role: "system", content: "Be terse." },
      { role: "user", content: "hello" },
    ]);
    expect(chat.model).toBe("openai/gpt-4o-mini");
    expect(chat.stream).toBeUndefined();
  });

  it("maps input_text and input_image parts, developer and assistant turns", () => {
    const chat = translate({
      model: "m",
      input: [
        { role: "developer", content: [{ type: "input_text", text: "rules" }] },
        {
          type: "message",
          role: "user",
          content: [
            { type: "input_text", text: "what is this?" },
            { type: "input_image", image_url: "https://example.com/a.png", detail: "low" },
          ],
        },
        { role: "assistant", content: [{ type: "output_text", text: "a cat" }] },
      ],
    });
    expect(chat.messages).toEqual([
      { role: "system", content: "rules" },
      {
        role: "user",
        content: [
          { type: "text", text: "what is this?" },
          { type: "image_url", image_url: { url: "https://example.com/a.png", detail: "low" } },
        ],
      },
      { role: "assistant", content: "a cat" },
    ]);
  });

  it("joins function_call items into one assistant turn and function_call_output into tool messages", () => {
    const chat = translate({
      model: "m",
      input: [
        { role: "user", content: "weather in Rome and Oslo?" },
        { type: "function_call", call_id: "c1", name: "get_weather", arguments: '{"city":"Rome"}' },
        { type: "function_call", call_id: "c2", name: "get_weather", arguments: '{"city":"Oslo"}' },
        { type: "function_call_output", call_id: "c1", output: "sunny" },
        { type: "function_call_output", call_id: "c2", output: "rain" },
      ],
    });
    expect(chat.messages.slice(1)).toEqual([
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "c1", type: "function", function: { name: "get_weather", arguments: '{"city":"Rome"}' } },
          { id: "c2", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' } },
        ],
      },
      { role: "tool", tool_call_id: "c1", content: "sunny" },
      { role: "tool", tool_call_id: "c2", content: "rain" },
    ]);
  });

  it("translates tools, tool_choice, parallel_tool_calls, reasoning effort, sampling and the token cap", () => {
    const chat = translate({
      model: "m",
      input: "x",
      tools: [
        { type: "function", name: "f", description: "does f", parameters: { type: "object" }, strict: true },
      ],
      tool_choice: { type: "function", name: "f" },
      parallel_tool_calls: false,
      reasoning: { effort: "high", summary: "auto" },
      max_output_tokens: 300,
      temperature: 0.5,
      top_p: 0.9,
      user: "u-1",
      stream: true,
      metadata: { team: "a" },
      store: false,
    });
    expect(chat).toMatchObject({
      tools: [
        {
          type: "function",
          function: { name: "f", description: "does f", parameters: { type: "object" }, strict: true },
        },
      ],
      tool_choice: { type: "function", function: { name: "f" } },
      parallel_tool_calls: false,
      reasoning: { effort: "high" },
      max_completion_tokens: 300,
      temperature: 0.5,
      top_p: 0.9,
      user: "u-1",
      stream: true,
    });
    // metadata is echoed on the response, never sent upstream.
    expect(chat).not.toHaveProperty("metadata");
  });

  it("sends tool_choice and parallel_tool_calls only with tools (chat APIs refuse them alone)", () => {
    const chat = translate({ model: "m", input: "x", tool_choice: "auto", parallel_tool_calls: true });
    expect(chat).not.toHaveProperty("tool_choice");
    expect(chat).not.toHaveProperty("parallel_tool_calls");
    expect(chat).not.toHaveProperty("tools");
  });

  it("refuses an input of reasoning items alone: there is nothing to answer", () => {
    const error = refusal({ model: "m", input: [{ type: "reasoning", id: "rs_1", summary: [] }] });
    expect(error.code).toBe("untranslatable_request");
    expect(error.message).toMatch(/^input /);
  });

  it("sends safety_identifier as the user (when no user is given) and prompt_cache_key as is", () => {
    const chat = translate({ model: "m", input: "x", safety_identifier: "hash-1", prompt_cache_key: "k" });
    expect(chat).toMatchObject({ user: "hash-1", prompt_cache_key: "k" });
    expect(translate({ model: "m", input: "x", user: "u", safety_identifier: "s" }).user).toBe("u");
  });

  it("maps text.format json_schema and json_object to the canonical response_format", () => {
    const schema = { type: "object", properties: { a: { type: "string" } } };
    expect(
      translate({
        model: "m",
        input: "x",
        text: { format: { type: "json_schema", name: "out", schema, strict: true } },
      }).response_format,
    ).toEqual({ type: "json_schema", json_schema: { name: "out", schema, strict: true } });
    expect(
      translate({ model: "m", input: "x", text: { format: { type: "json_object" } } }).response_format,
    ).toEqual({
      type: "json_object",
    });
    expect(translate({ model: "m", input: "x", text: { format: { type: "text" } } })).not.toHaveProperty(
      "response_format",
    );
  });

  it("refuses stored state by name: store true, previous_response_id, item_reference", () => {
    const stored = refusal({ model: "m", input: "x", store: true });
    expect(stored.status).toBe(400);
    expect(stored.code).toBe("untranslatable_request");
    expect(stored.message).toMatch(/^store: /);
    expect(refusal({ model: "m", input: "x", previous_response_id: "resp_1" }).message).toMatch(
      /^previous_response_id: /,
    );
    expect(refusal({ model: "m", input: [{ type: "item_reference", id: "msg_1" }] }).message).toMatch(
      /input\[0\]\.type/,
    );
  });

  it("refuses unknown fields, hosted tools and unsupported parts by name, never dropping them", () => {
    const unknown = refusal({ model: "m", input: "x", background: true, prompt: { id: "p" } });
    expect(unknown.code).toBe("untranslatable_request");
    expect(unknown.message).toMatch(/^background, prompt: /);
    const hosted = refusal({ model: "m", input: "x", tools: [{ type: "web_search_preview" }] });
    expect(hosted.code).toBe("untranslatable_request");
    expect(hosted.message).toMatch(/tools\[0\]\.type/);
    const file = refusal({
      model: "m",
      input: [{ role: "user", content: [{ type: "input_video", video_url: "https://x.test/v.mp4" }] }],
    });
    expect(file.message).toMatch(/input\[0\]\.content\[0\]\.type/);
    const image = refusal({
      model: "m",
      input: [{ role: "user", content: [{ type: "input_image", file_id: "f" }] }],
    });
    expect(image.message).toMatch(/file_id/);
    expect(refusal({ model: "m", input: [{ role: "user", content: [null] }] }).status).toBe(400);
  });

  it("maps input_file and input_audio parts to chat's file and input_audio, base64 as sent", () => {
    const chat = translate({
      model: "m",
      input: [
        {
          role: "user",
          content: [
            { type: "input_file", filename: "a.pdf", file_data: "data:application/pdf;base64,JVBERi0=" },
            { type: "input_file", file_url: "https://example.com/b.pdf" },
            { type: "input_file", file_id: "file-1" },
            { type: "input_audio", input_audio: { data: "UklGRg==", format: "wav" } },
          ],
        },
      ],
    });
    expect(chat.messages[0]?.content).toEqual([
      { type: "file", file: { filename: "a.pdf", file_data: "data:application/pdf;base64,JVBERi0=" } },
      { type: "file", file: { file_data: "https://example.com/b.pdf" } },
      { type: "file", file: { file_id: "file-1" } },
      { type: "input_audio", input_audio: { data: "UklGRg==", format: "wav" } },
    ]);
    expect(
      refusal({ model: "m", input: [{ role: "user", content: [{ type: "input_file" }] }] }).message,
    ).toMatch(/input\[0\]\.content\[0\].*file_data, file_url or file_id/);
  });

  it("answers a malformed body with a 400 naming the field", () => {
    expect(refusal({ model: "m" }).message).toMatch(/^input: /);
    expect(refusal({ model: "m", input: "x", max_output_tokens: 0 }).message).toMatch(/^max_output_tokens: /);
    expect(refusal({ model: "m", input: "x", temperature: 3 }).status).toBe(400);
  });

  it("echoes the request's parameters with OpenAI's defaults", () => {
    const echo = responsesEcho(
      parseResponsesRequest({ model: "m", input: "x", reasoning: { summary: "concise" } }),
    );
    expect(echo).toMatchObject({
      instructions: null,
      toolChoice: "auto",
      parallelToolCalls: true,
      metadata: {},
      reasoning: { effort: null, summary: "concise" },
      text: { format: { type: "text" } },
    });
  });
});
