import { describe, expect, it } from "vitest";
import { parseChatRequest } from "../../canonical/chat-request.js";
import { UntranslatableError } from "../untranslatable.js";
import { converseRequestBody } from "./converse-request.js";

const body = (fields: Record<string, unknown>) =>
  converseRequestBody(parseChatRequest({ model: "m", ...fields }));

describe("canonical chat → Bedrock Converse", () => {
  it("lifts system messages, merges same-role turns, puts sampling in inferenceConfig", () => {
    expect(
      body({
        messages: [
          { role: "system", content: "Be brief." },
          { role: "user", content: "a" },
          { role: "user", content: [{ type: "text", text: "b" }] },
        ],
        max_completion_tokens: 20,
        temperature: 0.5,
        top_p: 0.9,
        stop: "END",
        seed: 7,
      }),
    ).toEqual({
      messages: [{ role: "user", content: [{ text: "a" }, { text: "b" }] }],
      system: [{ text: "Be brief." }],
      inferenceConfig: { maxTokens: 20, temperature: 0.5, topP: 0.9, stopSequences: ["END"] },
    });
  });

  it("carries tools, a forced choice, tool calls and their results as toolUse/toolResult blocks", () => {
    const sent = body({
      messages: [
        { role: "user", content: "weather?" },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "t1", type: "function", function: { name: "get", arguments: '{"city":"Paris"}' } },
          ],
        },
        { role: "tool", tool_call_id: "t1", content: "sunny" },
      ],
      tools: [{ type: "function", function: { name: "get", parameters: { type: "object" } } }],
      tool_choice: "required",
    });
    expect(sent.messages).toEqual([
      { role: "user", content: [{ text: "weather?" }] },
      {
        role: "assistant",
        content: [{ toolUse: { toolUseId: "t1", name: "get", input: { city: "Paris" } } }],
      },
      { role: "user", content: [{ toolResult: { toolUseId: "t1", content: [{ text: "sunny" }] } }] },
    ]);
    expect(sent.toolConfig).toEqual({
      tools: [{ toolSpec: { name: "get", inputSchema: { json: { type: "object" } } } }],
      toolChoice: { any: {} },
    });
  });

  it("sends a data: image as bytes and refuses an image URL", () => {
    const image = (url: string) => ({
      messages: [{ role: "user", content: [{ type: "image_url", image_url: { url } }] }],
    });
    expect(body(image("data:image/png;base64,iVBOR")).messages).toEqual([
      { role: "user", content: [{ image: { format: "png", source: { bytes: "iVBOR" } } }] },
    ]);
    expect(() => body(image("https://example.com/a.png"))).toThrow(UntranslatableError);
  });

  it("refuses by name what Converse has no field for instead of dropping it", () => {
    const messages = [{ role: "user", content: "x" }];
    for (const field of [
      { top_k: 5 },
      { reasoning: { effort: "high" } },
      { response_format: { type: "json_object" } },
    ])
      expect(() => body({ messages, ...field }), JSON.stringify(field)).toThrow(UntranslatableError);
    expect(() => body({ messages, n: 2 })).toThrow(/n > 1/);
  });
});
