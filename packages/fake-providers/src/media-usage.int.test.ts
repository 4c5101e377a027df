import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeAnthropic } from "./anthropic/server.js";
import type { FakeServer } from "./core/server.js";
import { startFakeGemini } from "./gemini/server.js";
import { startFakeOpenAi } from "./openai/server.js";

// The strict fakes report media tokens where their real APIs do: OpenAI's audio apart
// (prompt_tokens_details.audio_tokens) and images and files inside prompt_tokens; Anthropic's images and
// PDF pages inside input_tokens; Gemini's by modality in promptTokensDetails (media.ts in each cites the rule).

const KEY = "fake-media-usage-key";
let anthropic: FakeServer;
let gemini: FakeServer;
let openai: FakeServer;

beforeAll(async () => {
  [anthropic, gemini, openai] = await Promise.all([
    startFakeAnthropic({ apiKey: KEY }),
    startFakeGemini({ apiKey: KEY }),
    startFakeOpenAi({ apiKey: KEY }),
  ]);
});
afterAll(async () => {
  await Promise.all([anthropic.close(), gemini.close(), openai.close()]);
});

/** One second of 16 kHz 16-bit mono WAV: a 44-byte header (byte rate 32,000) and 32,000 bytes of silence. */
function wavSecond(): string {
  const header = Buffer.alloc(44);
  header.write("RIFF", 0, "latin1");
  header.writeUInt32LE(36 + 32_000, 4);
  header.write("WAVEfmt ", 8, "latin1");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(16_000, 24);
  header.writeUInt32LE(32_000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36, "latin1");
  header.writeUInt32LE(32_000, 40);
  return Buffer.concat([header, Buffer.alloc(32_000)]).toString("base64");
}

/** A PNG signature and IHDR chunk for a 512x512 image (the fakes size images from the IHDR). */
function png512(): string {
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const ihdr = Buffer.alloc(25);
  ihdr.writeUInt32BE(13, 0);
  ihdr.write("IHDR", 4, "latin1");
  ihdr.writeUInt32BE(512, 8);
  ihdr.writeUInt32BE(512, 12);
  return Buffer.concat([signature, ihdr]).toString("base64");
}

const PDF_2_PAGES = Buffer.from(
  "%PDF-1.4\n1 0 obj << /Type /Pages /Count 2 >> endobj\n2 0 obj << /Type /Page >> endobj\n3 0 obj << /Type /Page >> endobj\n%%EOF\n",
  "latin1",
).toString("base64");

const post = async (url: string, headers: Record<string, string>, body: unknown) => {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown> & { usage?: Record<string, unknown> };
};

describe("fake OpenAI media usage", () => {
  const send = (content: unknown[]) =>
    post(
      `${openai.baseUrl}/chat/completions`,
      { authorization: `Bearer ${KEY}` },
      {
        model: "gpt-4o-mini",
        messages: [{ role: "user", content }],
      },
    );

  it("counts audio apart in prompt_tokens_details.audio_tokens, images and PDF pages in prompt_tokens", async () => {
    const text = [{ type: "text", text: "see" }];
    const base = (await send(text)).usage as { prompt_tokens: number };
    const body = await send([
      ...text,
      { type: "input_audio", input_audio: { data: wavSecond(), format: "wav" } },
      { type: "image_url", image_url: { url: `data:image/png;base64,${png512()}` } },
      { type: "image_url", image_url: { url: "https://x.test/a.png", detail: "low" } },
      { type: "file", file: { filename: "a.pdf", file_data: `data:application/pdf;base64,${PDF_2_PAGES}` } },
    ]);
    // 1 s of audio at 10 a second; 512x512 high detail: 85 + 170 x 1 tile; low detail: 85; 2 pages x 765.
    expect(body.usage).toMatchObject({
      prompt_tokens: base.prompt_tokens + 10 + 255 + 85 + 1_530,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 10 },
    });
  });
});

describe("fake Anthropic media usage", () => {
  const send = (content: unknown[]) =>
    post(
      `${anthropic.url}/v1/messages`,
      { "x-api-key": KEY, "anthropic-version": "2023-06-01" },
      {
        model: "claude-sonnet-4-20250514",
        max_tokens: 20,
        messages: [{ role: "user", content }],
      },
    );

  it("counts images and PDF pages inside input_tokens, with no breakdown", async () => {
    const text = [{ type: "text", text: "see" }];
    const base = (await send(text)).usage as { input_tokens: number };
    const body = await send([
      ...text,
      { type: "image", source: { type: "base64", media_type: "image/png", data: png512() } },
      { type: "document", source: { type: "base64", media_type: "application/pdf", data: PDF_2_PAGES } },
    ]);
    // 512 x 512 / 750 = 349.5 -> 350; each page 1,600 (its image) + 1,500 (its text).
    expect(body.usage?.input_tokens).toBe(base.input_tokens + 350 + 2 * 3_100);
  });
});

describe("fake Gemini media usage", () => {
  it("reports the prompt by modality in promptTokensDetails", async () => {
    const body = await post(
      `${gemini.url}/v1beta/models/gemini-2.5-flash:generateContent`,
      { "x-goog-api-key": KEY },
      {
        contents: [
          {
            role: "user",
            parts: [
              { text: "see" },
              { inlineData: { mimeType: "image/png", data: png512() } },
              { inlineData: { mimeType: "audio/wav", data: wavSecond() } },
              { inlineData: { mimeType: "application/pdf", data: PDF_2_PAGES } },
            ],
          },
        ],
      },
    );
    const usage = body.usageMetadata as { promptTokenCount: number; promptTokensDetails: unknown[] };
    // A 512-pixel image is one 768 tile (258); 1 s of audio at 32 a second; 258 a PDF page.
    expect(usage.promptTokensDetails).toEqual([
      { modality: "TEXT", tokenCount: 1 },
      { modality: "IMAGE", tokenCount: 258 },
      { modality: "AUDIO", tokenCount: 32 },
      { modality: "DOCUMENT", tokenCount: 516 },
    ]);
    expect(usage.promptTokenCount).toBe(1 + 258 + 32 + 516);
  });
});
