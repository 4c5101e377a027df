import { describe, expect, it } from "vitest";
import { NativeUsageScanner } from "./proxy-usage.js";

function scan(format: "openai" | "anthropic" | "gemini", streamed: boolean, parts: string[]) {
  const scanner = new NativeUsageScanner(format, streamed);
  for (const part of parts) scanner.push(Buffer.from(part));
  return scanner.finish();
}

describe("NativeUsageScanner", () => {
  it("reads OpenAI's usage chunk from an SSE stream split mid-line", () => {
    const usage = scan("openai", true, [
      'data: {"choices":[{"delta":{"content":"hi"}}]}\n\ndata: {"choices":[],"us',
      'age":{"prompt_tokens":7,"completion_tokens":3}}\n\ndata: [DONE]\n\n',
    ]);
    expect(usage).toMatchObject({ promptTokens: 7, completionTokens: 3 });
  });

  it("reads the Responses API's usage (input/output tokens) in a JSON body", () => {
    const usage = scan("openai", false, ['{"output":[],"usage":{"input_tokens":5,"output_tokens":2}}']);
    expect(usage).toMatchObject({ promptTokens: 5, completionTokens: 2 });
  });

  it("merges Anthropic's message_start input and message_delta output", () => {
    const usage = scan("anthropic", true, [
      'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":12,"output_tokens":1}}}\n\n',
      'event: message_delta\ndata: {"type":"message_delta","usage":{"output_tokens":9}}\n\n',
    ]);
    expect(usage).toMatchObject({ promptTokens: 12, completionTokens: 9 });
  });

  it("takes Gemini's last usageMetadata, from a JSON array stream too", () => {
    const usage = scan("gemini", false, [
      '[{"usageMetadata":{"promptTokenCount":4,"candidatesTokenCount":1}},',
      '{"usageMetadata":{"promptTokenCount":4,"candidatesTokenCount":6}}]',
    ]);
    expect(usage).toMatchObject({ promptTokens: 4, completionTokens: 6 });
  });

  it("reports no usage when the body has none or is not JSON", () => {
    expect(scan("openai", false, ["not json"])).toBeUndefined();
    expect(scan("gemini", true, ['data: {"candidates":[]}\n\n'])).toBeUndefined();
  });
});
