import { describe, expect, it } from "vitest";
import { parseChatRequest } from "../../canonical/chat-request.js";
import { geminiRequestBody } from "./from-openai.js";

describe("geminiRequestBody (OpenAI → Gemini golden)", () => {
  it("maps system, roles, images, tools, calls with signatures, named results and generation config", () => {
    const request = parseChatRequest({
      model: "google/gemini",
      messages: [
        { role: "system", content: "Be terse." },
        {
          role: "user",
          content: [
            { type: "text", text: "Weather?" },
            { type: "image_url", image_url: { url: "data:image/jpeg;base64,/9j/" } },
          ],
        },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            {
              id: "call_1",
              type: "function",
              function: { name: "get_weather", arguments: '{"city":"Paris"}' },
            },
          ],
          reasoning_details: [
            { type: "reasoning.encrypted", id: "call_1", data: "sig==", format: "google-gemini-v1" },
          ],
        },
        { role: "tool", tool_call_id: "call_1", content: "18C" },
        { role: "tool", tool_call_id: "call_1", content: '{"temp":18}' },
      ],
      tools: [{ type: "function", function: { name: "get_weather", parameters: { type: "object" } } }],
      tool_choice: "required",
      temperature: 1.5,
      max_tokens: 100,
      stop: ["END"],
      seed: 3,
      response_format: { type: "json_schema", json_schema: { name: "x", schema: { type: "object" } } },
    });
    expect(geminiRequestBody(request)).toEqual({
      systemInstruction: { parts: [{ text: "Be terse." }] },
      contents: [
        {
          role: "user",
          parts: [{ text: "Weather?" }, { inlineData: { mimeType: "image/jpeg", data: "/9j/" } }],
        },
        {
          role: "model",
          parts: [
            { functionCall: { name: "get_weather", args: { city: "Paris" } }, thoughtSignature: "sig==" },
          ],
        },
        {
          role: "user",
          parts: [
            { functionResponse: { name: "get_weather", response: { result: "18C" } } },
            { functionResponse: { name: "get_weather", response: { temp: 18 } } },
          ],
        },
      ],
      tools: [{ functionDeclarations: [{ name: "get_weather", parametersJsonSchema: { type: "object" } }] }],
      toolConfig: { functionCallingConfig: { mode: "ANY" } },
      generationConfig: {
        temperature: 1.5,
        maxOutputTokens: 100,
        stopSequences: ["END"],
        seed: 3,
        responseMimeType: "application/json",
        responseJsonSchema: { type: "object" },
      },
    });
  });

  it("refuses image URLs and results for unknown calls, naming them", () => {
    expect(() =>
      geminiRequestBody(
        parseChatRequest({
          model: "m",
          messages: [
            { role: "user", content: [{ type: "image_url", image_url: { url: "https://x/y.png" } }] },
          ],
        }),
      ),
    ).toThrow(/data: URL/);
    expect(() =>
      geminiRequestBody(
        parseChatRequest({
          model: "m",
          messages: [
            { role: "user", content: "hi" },
            { role: "tool", tool_call_id: "nope", content: "x" },
          ],
        }),
      ),
    ).toThrow(/no earlier assistant tool call has id nope/);
  });

  it("bounds JSON inside strings: deep arguments are refused, a deep result goes as text (issue 33)", () => {
    const deep = `{"a":${"[".repeat(10_000)}${"]".repeat(10_000)}}`;
    const turn = (args: string, result: string) =>
      parseChatRequest({
        model: "m",
        messages: [
          { role: "user", content: "hi" },
          {
            role: "assistant",
            content: null,
            tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: args } }],
          },
          { role: "tool", tool_call_id: "c1", content: result },
        ],
      });
    expect(() => geminiRequestBody(turn(deep, "x"))).toThrow(/nests deeper than 64 levels/);
    const body = geminiRequestBody(turn("{}", deep));
    expect(JSON.stringify(body)).toContain('"result":"{\\"a\\":[[[');
  });
});
