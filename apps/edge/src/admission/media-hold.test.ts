import { listPrice } from "@gw/catalog";
import { describe, expect, it } from "vitest";
import { parseChatRequest } from "../canonical/chat-request.js";
import { promptText } from "../canonical/prompt-text.js";
import { testEndpoint, testModel } from "../test/catalog.js";
import { affordableTokens } from "./affordable.js";
import { audioTokenBound, endpointWorstCase, IMAGE_TOKENS_BOUND } from "./worst-case.js";

const input = { promptTokens: 100, maxTokens: 10, choices: 1, imageCount: 0 };
// $1 / M in, $2 / M out, $4 / M audio in; a 10,000-token context.
const endpoint = testEndpoint("p", {
  contextLength: 10_000,
  pricing: { ...listPrice({ prompt: "1", completion: "2", audio: "4", image: "0.01" }) },
});
const text = 100n * 1_000_000n + 10n * 2_000_000n;

describe("the hold includes the media", () => {
  it("bounds audio at 32 tokens a second over a 500-byte-a-second floor of the bytes sent", () => {
    // One second of 16 kHz 16-bit mono WAV (32,000 bytes) is held as 64 seconds: 2,048 tokens.
    expect(audioTokenBound(32_000)).toBe(2_048);
    expect(audioTokenBound(0)).toBe(0);
    expect(audioTokenBound(1)).toBe(1);
  });

  it("reads the audio bytes and the documents off the prompt", () => {
    const request = parseChatRequest({
      model: "a/b",
      messages: [
        {
          role: "user",
          content: [
            { type: "input_audio", input_audio: { data: "A".repeat(4_000), format: "wav" } },
            { type: "file", file: { file_data: "data:application/pdf;base64,JVBE" } },
          ],
        },
      ],
    });
    expect(promptText(request)).toMatchObject({ audioBytes: 3_000, fileCount: 1 });
  });

  it("holds audio tokens at the dearer of the prompt and audio prices, capped by the context", () => {
    expect(endpointWorstCase(endpoint, { ...input, audioTokens: 2_048 })).toBe(text + 2_048n * 4_000_000n);
    expect(endpointWorstCase(endpoint, { ...input, audioTokens: 50_000 })).toBe(text + 10_000n * 4_000_000n);
  });

  it("holds a document at the endpoint's whole context, and images at the per-image price and their token bound", () => {
    expect(endpointWorstCase(endpoint, { ...input, files: 1 })).toBe(text + 10_000n * 4_000_000n);
    // Three images at up to IMAGE_TOKENS_BOUND each are more than this 10,000-token context holds.
    expect(endpointWorstCase(endpoint, { ...input, imageCount: 3 })).toBe(
      text + 3n * 10_000_000_000n + 10_000n * 4_000_000n,
    );
    const wide = testEndpoint("p", { contextLength: 1_000_000, prompt: "4", completion: "2" });
    expect(endpointWorstCase(wide, { ...input, imageCount: 1 }) - endpointWorstCase(wide, input)).toBe(
      BigInt(IMAGE_TOKENS_BOUND) * 4_000_000n,
    );
  });

  it("leaves fewer output tokens affordable once the media is paid for", () => {
    const model = testModel("a/b", [endpoint]);
    const attempt = { model, endpoint };
    const plain = affordableTokens(attempt, input, 100_000_000_000n);
    const withAudio = affordableTokens(attempt, { ...input, audioTokens: 2_048 }, 100_000_000_000n);
    expect(plain - withAudio).toBe((2_048 * 4_000_000) / 2_000_000);
  });
});
