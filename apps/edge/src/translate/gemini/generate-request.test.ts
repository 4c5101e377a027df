import { describe, expect, it } from "vitest";
import { chatRequestFromGemini, parseGenerateContent } from "./generate-request.js";

describe("chatRequestFromGemini (Gemini → OpenAI golden)", () => {
  it("maps system, roles, images, calls with signatures, responses by id and name, config and tools", () => {
    const request = parseGenerateContent({
      systemInstruction: { parts: [{ text: "Be terse." }] },
      contents: [
        {
          role: "user",
          parts: [{ text: "Weather?" }, { inlineData: { mimeType: "image/png", data: "iVBOR" } }],
        },
        {
          role: "model",
          parts: [
            { text: "notes", thought: true },
            { functionCall: { name: "get_weather", args: { city: "Paris" } }, thoughtSignature: "sig" },
            { functionCall: { id: "fc-2", name: "get_time", args: {} } },
          ],
        },
        {
          role: "user",
          parts: [
            { functionResponse: { id: "fc-2", name: "get_time", response: { time: "noon" } } },
            { functionResponse: { name: "get_weather", response: { temp: 18 } } },
            { text: "Thanks" },
          ],
        },
      ],
      tools: [
        {
          functionDeclarations: [
            { name: "get_weather", parameters: { type: "OBJECT", properties: { city: { type: "STRING" } } } },
            { name: "get_time", parametersJsonSchema: { type: "object" } },
          ],
        },
      ],
      toolConfig: { functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["get_weather"] } },
      generationConfig: {
        temperature: 0.3,
        topK: 4,
        maxOutputTokens: 99,
        stopSequences: ["END"],
        candidateCount: 2,
        responseMimeType: "application/json",
      },
      safetySettings: [{ category: "HARM_CATEGORY_HARASSMENT", threshold: "BLOCK_NONE" }],
    });
    expect(chatRequestFromGemini(request, "google/gemini", false)).toEqual({
      model: "google/gemini",
      stream: false,
      messages: [
        { role: "system", content: "Be terse." },
        {
          role: "user",
          content: [
            { type: "text", text: "Weather?" },
            { type: "image_url", image_url: { url: "data:image/png;base64,iVBOR" } },
          ],
        },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            {
              id: "call_0",
              type: "function",
              function: { name: "get_weather", arguments: '{"city":"Paris"}' },
            },
            { id: "fc-2", type: "function", function: { name: "get_time", arguments: "{}" } },
          ],
          reasoning_details: [
            { type: "reasoning.encrypted", id: "call_0", data: "sig", format: "google-gemini-v1" },
          ],
        },
        { role: "tool", tool_call_id: "fc-2", content: '{"time":"noon"}' },
        { role: "tool", tool_call_id: "call_0", content: '{"temp":18}' },
        { role: "user", content: "Thanks" },
      ],
      temperature: 0.3,
      top_k: 4,
      max_tokens: 99,
      n: 2,
      stop: ["END"],
      response_format: { type: "json_object" },
      // Carried for a Gemini target; the others refuse it (target-fields.ts).
      safety_settings: [{ category: "HARM_CATEGORY_HARASSMENT", threshold: "BLOCK_NONE" }],
      tools: [
        {
          type: "function",
          function: {
            name: "get_weather",
            parameters: { type: "object", properties: { city: { type: "string" } } },
          },
        },
        { type: "function", function: { name: "get_time", parameters: { type: "object" } } },
      ],
      tool_choice: { type: "function", function: { name: "get_weather" } },
    });
  });

  it("refuses built-in tools, files and unmatched responses", () => {
    const translate = (body: object) => () => chatRequestFromGemini(parseGenerateContent(body), "m", false);
    const hi = [{ role: "user", parts: [{ text: "hi" }] }];
    expect(translate({ contents: hi, tools: [{ googleSearch: {} }] })).toThrow(/tools\[0\]\.googleSearch/);
    expect(() =>
      chatRequestFromGemini(
        parseGenerateContent({ contents: hi, generationConfig: { candidateCount: 2 } }),
        "m",
        true,
      ),
    ).toThrow(/candidateCount/);
    expect(translate({ contents: [{ parts: [{ fileData: { fileUri: "gs://x" } }] }] })).toThrow(/fileData/);
    expect(translate({ contents: [{ parts: [{ functionResponse: { name: "f", response: {} } }] }] })).toThrow(
      /no earlier functionCall matches f/,
    );
  });
});
