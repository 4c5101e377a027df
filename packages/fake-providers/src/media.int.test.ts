import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeAnthropic } from "./anthropic/server.js";
import type { FakeServer } from "./core/server.js";
import { startFakeGemini } from "./gemini/server.js";
import { startFakeOpenAi } from "./openai/server.js";

// The strict fakes take the media their real APIs take and refuse the rest with the real error shape
// (anthropic/media.ts, gemini/media.ts, openai/media.ts cite the limits).

const KEY = "fake-media-key";
const PDF = "JVBERi0xLjQKJSVFT0YK";
const PNG = "iVBORw0KGgo=";
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

const post = (url: string, headers: Record<string, string>, body: unknown) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

describe("fake Anthropic media", () => {
  const send = (content: unknown[]) =>
    post(
      `${anthropic.url}/v1/messages`,
      { "x-api-key": KEY, "anthropic-version": "2023-06-01" },
      { model: "claude-sonnet-4-20250514", max_tokens: 20, messages: [{ role: "user", content }] },
    );
  const image = (media_type: string, data = PNG) => ({
    type: "image",
    source: { type: "base64", media_type, data },
  });

  it("takes images, PDF, url and text documents", async () => {
    const response = await send([
      { type: "text", text: "see" },
      image("image/png"),
      { type: "document", source: { type: "base64", media_type: "application/pdf", data: PDF } },
      {
        type: "document",
        source: { type: "url", url: "https://x.test/a.pdf" },
        citations: { enabled: true },
      },
      { type: "document", source: { type: "text", media_type: "text/plain", data: "words" } },
    ]);
    expect(response.status).toBe(200);
  });

  it("refuses an image type, an image over 5 MB, a non-PDF base64 document and more than 100 images", async () => {
    const refusal = async (content: unknown[]) => {
      const response = await send(content);
      expect(response.status).toBe(400);
      return ((await response.json()) as { type: string; error: { type: string; message: string } }).error;
    };
    expect(await refusal([image("image/bmp")])).toEqual({
      type: "invalid_request_error",
      message:
        "messages.0.content.0.image.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'",
    });
    expect((await refusal([image("image/png", "A".repeat(5 * 1024 * 1024 + 4))])).message).toMatch(
      /image exceeds 5 MB maximum: 5242884 bytes > 5242880 bytes/,
    );
    expect(
      (
        await refusal([
          { type: "document", source: { type: "base64", media_type: "application/zip", data: "UEs=" } },
        ])
      ).message,
    ).toMatch(/document\.source\.base64\.media_type: Input should be 'application\/pdf'/);
    expect((await refusal(Array.from({ length: 101 }, () => image("image/png")))).message).toMatch(
      /Too many images/,
    );
  });
});

describe("fake Gemini inline data", () => {
  const send = (parts: unknown[]) =>
    post(
      `${gemini.url}/v1beta/models/gemini-2.5-flash:generateContent`,
      { "x-goog-api-key": KEY },
      {
        contents: [{ role: "user", parts }],
      },
    );

  it("takes inline images, PDFs, text and audio", async () => {
    const response = await send([
      { text: "see" },
      { inlineData: { mimeType: "image/png", data: PNG } },
      { inlineData: { mimeType: "application/pdf", data: PDF } },
      { inlineData: { mimeType: "audio/wav", data: "UklGRg==" } },
    ]);
    expect(response.status).toBe(200);
  });

  it("refuses an unsupported MIME type and inline data over 20 MB with INVALID_ARGUMENT", async () => {
    const zip = await send([{ inlineData: { mimeType: "application/zip", data: "UEs=" } }]);
    expect(zip.status).toBe(400);
    expect(await zip.json()).toMatchObject({
      error: { code: 400, message: "Unsupported MIME type: application/zip", status: "INVALID_ARGUMENT" },
    });
    const big = await send([
      { inlineData: { mimeType: "application/pdf", data: "A".repeat(20 * 1024 * 1024 + 4) } },
    ]);
    expect(big.status).toBe(400);
    expect(await big.json()).toMatchObject({
      error: {
        message: "Request payload size exceeds the limit: 20971520 bytes.",
        status: "INVALID_ARGUMENT",
      },
    });
  });
});

describe("fake OpenAI media parts", () => {
  const send = (content: unknown[]) =>
    post(
      `${openai.baseUrl}/chat/completions`,
      { authorization: `Bearer ${KEY}` },
      {
        model: "gpt-4o-mini",
        messages: [{ role: "user", content }],
      },
    );

  it("takes images (URL and data), a PDF data URL and wav audio", async () => {
    const response = await send([
      { type: "text", text: "see" },
      { type: "image_url", image_url: { url: "https://x.test/a.png" } },
      { type: "image_url", image_url: { url: `data:image/png;base64,${PNG}` } },
      { type: "file", file: { filename: "a.pdf", file_data: `data:application/pdf;base64,${PDF}` } },
      { type: "input_audio", input_audio: { data: "UklGRg==", format: "wav" } },
    ]);
    expect(response.status).toBe(200);
  });

  it("refuses an audio format other than wav or mp3 and a file URL, naming the param", async () => {
    const flac = await send([{ type: "input_audio", input_audio: { data: "ZkxhQw==", format: "flac" } }]);
    expect(flac.status).toBe(400);
    expect(await flac.json()).toMatchObject({
      error: {
        message: "Invalid value: 'flac'. Supported values are: 'wav' and 'mp3'.",
        type: "invalid_request_error",
        param: "messages[0].content[0].input_audio.format",
        code: "invalid_value",
      },
    });
    const url = await send([{ type: "file", file: { file_data: "https://x.test/a.pdf" } }]);
    expect(url.status).toBe(400);
    expect(await url.json()).toMatchObject({ error: { param: "messages[0].content[0].file.file_data" } });
  });
});
