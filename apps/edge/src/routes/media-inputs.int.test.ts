import Anthropic from "@anthropic-ai/sdk";
import { GoogleGenAI } from "@google/genai";
import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type MediaFetcher, MediaFetchRefused } from "../media/fetcher.js";
import { type EdgeHarness, startEdgeHarness } from "../test/harness.js";
import { testKey } from "../test/principals.js";

// Issue 32 (media inputs): a PDF, an image (data: and http URL) and an audio clip reach every provider
// format that takes them, byte-exact where nothing is converted, and are refused by name where not.

const key = testKey("acct-media");
const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==";
const PDF =
  "JVBERi0xLjQKJcfsj6IKMSAwIG9iago8PC9UeXBlL0NhdGFsb2c+PgplbmRvYmoKdHJhaWxlcgo8PC9Sb290IDEgMCBSPj4KJSVFT0YK";
const WAV = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA=";
const FETCHED = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff]);

const pdfPart = {
  type: "file",
  file: { filename: "report.pdf", file_data: `data:application/pdf;base64,${PDF}` },
};
const imagePart = { type: "image_url", image_url: { url: `data:image/png;base64,${PNG}` } };
const urlImagePart = { type: "image_url", image_url: { url: "https://media.example/cat.png" } };
const audioPart = { type: "input_audio", input_audio: { data: WAV, format: "wav" } };

type Json = Record<string, unknown>;

/** Serves https://media.example/…; refuses any other URL as the guarded fetcher would. */
const fetcher: MediaFetcher = async (url) => {
  if (!url.startsWith("https://media.example/")) throw new MediaFetchRefused("the host is not public");
  return { bytes: FETCHED, contentType: url.endsWith(".pdf") ? "application/pdf" : "image/png" };
};

let edge: EdgeHarness;
let client: OpenAI;

beforeAll(async () => {
  edge = await startEdgeHarness({ keys: [key], settings: { keepAliveMs: 100 }, mediaFetcher: fetcher });
  client = new OpenAI({ apiKey: key.secret, baseURL: `${edge.url}/v1`, maxRetries: 0 });
});

afterAll(async () => {
  await edge?.stop();
});

beforeEach(() => {
  for (const fake of [edge.primary, edge.anthropic, edge.gemini]) {
    fake.resetScenario();
    fake.clearRequests();
  }
});

const chat = (model: string, ...parts: Json[]) =>
  fetch(`${edge.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key.secret}`, "content-type": "application/json" },
    body: JSON.stringify({
      model,
      messages: [{ role: "user", content: [{ type: "text", text: "look" }, ...parts] }],
    }),
  });

const lastBody = (fake: EdgeHarness["anthropic"]) => fake.requests().at(-1)?.body as Json;
const anthropicParts = () =>
  ((lastBody(edge.anthropic).messages as Json[])[0] as { content: Json[] }).content.slice(1);
const geminiParts = () => ((lastBody(edge.gemini).contents as Json[])[0] as { parts: Json[] }).parts.slice(1);

describe("chat completions (openai SDK) → each provider format", () => {
  it("OpenAI: the PDF, images and audio go as sent", async () => {
    const content = [{ type: "text", text: "look" }, pdfPart, imagePart, urlImagePart, audioPart];
    const answer = await client.chat.completions.create({
      model: "openai/gpt-4o-mini",
      messages: [{ role: "user", content: content as OpenAI.ChatCompletionContentPart[] }],
    });
    expect(answer.choices[0]?.message.content).toContain("Echo");
    expect((lastBody(edge.primary).messages as Json[])[0]).toEqual({ role: "user", content });
  });

  it("Anthropic: document and image blocks, byte-exact; an image URL passed for Anthropic to fetch", async () => {
    const answer = await client.chat.completions.create({
      model: "anthropic/claude-test",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "look" },
            pdfPart,
            imagePart,
            urlImagePart,
          ] as OpenAI.ChatCompletionContentPart[],
        },
      ],
    });
    expect(answer.choices[0]?.finish_reason).toBe("stop");
    expect(anthropicParts()).toEqual([
      {
        type: "document",
        source: { type: "base64", media_type: "application/pdf", data: PDF },
        title: "report.pdf",
      },
      { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
      { type: "image", source: { type: "url", url: "https://media.example/cat.png" } },
    ]);
  });

  it("Gemini: inlineData byte-exact; the URL image fetched by the edge and sent inline", async () => {
    const response = await chat("google/gemini-test", pdfPart, imagePart, audioPart, urlImagePart);
    expect(response.status).toBe(200);
    expect(geminiParts()).toEqual([
      { inlineData: { mimeType: "application/pdf", data: PDF } },
      { inlineData: { mimeType: "image/png", data: PNG } },
      { inlineData: { mimeType: "audio/wav", data: WAV } },
      { inlineData: { mimeType: "image/png", data: Buffer.from(FETCHED).toString("base64") } },
    ]);
  });

  it("OpenAI: a PDF given as a URL (OpenRouter's form) is fetched and sent as a data: URL", async () => {
    const response = await chat("openai/gpt-4o-mini", {
      type: "file",
      file: { filename: "a.pdf", file_data: "https://media.example/a.pdf" },
    });
    expect(response.status).toBe(200);
    expect(((lastBody(edge.primary).messages as Json[])[0] as { content: Json[] }).content[1]).toEqual({
      type: "file",
      file: {
        filename: "a.pdf",
        file_data: `data:application/pdf;base64,${Buffer.from(FETCHED).toString("base64")}`,
      },
    });
  });

  it("refuses audio to Anthropic by name before admission: 400, nothing sent upstream", async () => {
    const admits = edge.billing.admits.length;
    const response = await chat("anthropic/claude-test", audioPart);
    expect(response.status).toBe(400);
    expect(edge.billing.admits.length).toBe(admits);
    const body = (await response.json()) as { error: { message: string; code: unknown; metadata?: Json } };
    expect(body.error.message).toMatch(/messages\[0\]\.content\[1\] \(input_audio wav\).*no audio input/);
    expect(body.error.metadata?.reason ?? body.error.code).toBe("untranslatable_request");
    expect(edge.anthropic.requests()).toHaveLength(0);
  });

  it("refuses an OpenAI file_id for Gemini by name", async () => {
    const response = await chat("google/gemini-test", { type: "file", file: { file_id: "file-abc" } });
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/content\[1\] \(file_id file-abc\).*OpenAI's own storage/);
    expect(edge.gemini.requests()).toHaveLength(0);
  });

  it("a URL the fetcher refuses is a 400 naming the part, and nothing reaches the provider", async () => {
    const response = await chat("google/gemini-test", {
      type: "image_url",
      image_url: { url: "http://169.254.169.254/latest" },
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(
      /content\[1\] \(image URL\) could not be fetched: the host is not public/,
    );
    expect(edge.gemini.requests()).toHaveLength(0);
  });
});

describe("Anthropic documents and Gemini inline data → other formats", () => {
  const messages = (model: string, content: Json[]) =>
    fetch(`${edge.url}/v1/messages`, {
      method: "POST",
      headers: {
        "x-api-key": key.secret,
        "content-type": "application/json",
        "anthropic-version": "2023-06-01",
      },
      body: JSON.stringify({ model, max_tokens: 50, messages: [{ role: "user", content }] }),
    });
  const generate = (model: string, parts: Json[]) =>
    fetch(`${edge.url}/v1beta/models/${model}:generateContent`, {
      method: "POST",
      headers: { "x-goog-api-key": key.secret, "content-type": "application/json" },
      body: JSON.stringify({ contents: [{ role: "user", parts }] }),
    });
  const document = { type: "document", source: { type: "base64", media_type: "application/pdf", data: PDF } };

  it("an Anthropic document reaches Gemini as inlineData and OpenAI as a file part, byte-exact", async () => {
    expect((await messages("google/gemini-test", [{ type: "text", text: "read" }, document])).status).toBe(
      200,
    );
    expect(geminiParts()).toEqual([{ inlineData: { mimeType: "application/pdf", data: PDF } }]);
    expect((await messages("openai/gpt-4o-mini", [{ type: "text", text: "read" }, document])).status).toBe(
      200,
    );
    expect(((lastBody(edge.primary).messages as Json[])[0] as { content: Json[] }).content[1]).toEqual({
      type: "file",
      file: { file_data: `data:application/pdf;base64,${PDF}` },
    });
  });

  it("a document's citations go to Anthropic as sent and exclude other formats by name", async () => {
    const cited = { ...document, citations: { enabled: true }, cache_control: { type: "ephemeral" } };
    expect((await messages("anthropic/claude-test", [{ type: "text", text: "read" }, cited])).status).toBe(
      200,
    );
    expect(anthropicParts()).toEqual([cited]);
    const refused = await messages("google/gemini-test", [{ type: "text", text: "read" }, cited]);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toMatch(/messages\[0\]\.content\[1\]\.citations/);
    expect(edge.gemini.requests()).toHaveLength(0);
  });

  it("Gemini inline PDF and audio reach OpenAI; the audio is refused by name for Anthropic", async () => {
    const parts = [
      { text: "listen" },
      { inlineData: { mimeType: "application/pdf", data: PDF } },
      { inlineData: { mimeType: "audio/wav", data: WAV } },
    ];
    expect((await generate("openai/gpt-4o-mini", parts)).status).toBe(200);
    expect(((lastBody(edge.primary).messages as Json[])[0] as { content: Json[] }).content.slice(1)).toEqual([
      { type: "file", file: { file_data: `data:application/pdf;base64,${PDF}` } },
      { type: "input_audio", input_audio: { data: WAV, format: "wav" } },
    ]);
    const refused = await generate("anthropic/claude-test", parts);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toMatch(/messages\[0\]\.content\[2\] \(input_audio wav\).*no audio input/);
    expect(edge.anthropic.requests()).toHaveLength(0);
  });
});

describe("Responses API parts → each provider format", () => {
  const respond = (model: string, content: Json[]) =>
    fetch(`${edge.url}/v1/responses`, {
      method: "POST",
      headers: { authorization: `Bearer ${key.secret}`, "content-type": "application/json" },
      body: JSON.stringify({
        model,
        input: [{ role: "user", content: [{ type: "input_text", text: "see" }, ...content] }],
      }),
    });
  const file = { type: "input_file", filename: "r.pdf", file_data: `data:application/pdf;base64,${PDF}` };
  const image = { type: "input_image", image_url: `data:image/png;base64,${PNG}` };
  const sound = { type: "input_audio", input_audio: { data: WAV, format: "wav" } };

  it("input_file and input_image reach Anthropic as document and image blocks, byte-exact", async () => {
    expect((await respond("anthropic/claude-test", [file, image])).status).toBe(200);
    expect(anthropicParts()).toEqual([
      {
        type: "document",
        source: { type: "base64", media_type: "application/pdf", data: PDF },
        title: "r.pdf",
      },
      { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
    ]);
  });

  it("input_file, input_image and input_audio reach Gemini inline; audio to Anthropic is refused by name", async () => {
    expect((await respond("google/gemini-test", [file, image, sound])).status).toBe(200);
    expect(geminiParts()).toEqual([
      { inlineData: { mimeType: "application/pdf", data: PDF } },
      { inlineData: { mimeType: "image/png", data: PNG } },
      { inlineData: { mimeType: "audio/wav", data: WAV } },
    ]);
    const refused = await respond("anthropic/claude-test", [sound]);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toMatch(/content\[1\] \(input_audio wav\).*no audio input/);
    expect(edge.anthropic.requests()).toHaveLength(0);
  });
});

describe("official SDKs at their defaults", () => {
  it("@anthropic-ai/sdk: a PDF document reaches Gemini inline, streamed, byte-exact", async () => {
    const anthropic = new Anthropic({ apiKey: key.secret, baseURL: edge.url, maxRetries: 0 });
    const stream = anthropic.messages.stream({
      model: "google/gemini-test",
      max_tokens: 50,
      messages: [
        {
          role: "user",
          content: [
            {
              type: "document",
              source: { type: "base64", media_type: "application/pdf", data: PDF },
              title: "Q3",
            },
            { type: "text", text: "summarise" },
          ],
        },
      ],
    });
    const message = await stream.finalMessage();
    expect(message.stop_reason).toBe("end_turn");
    const parts = ((lastBody(edge.gemini).contents as Json[])[0] as { parts: Json[] }).parts;
    expect(parts[0]).toEqual({ inlineData: { mimeType: "application/pdf", data: PDF } });
  });

  it("@google/genai: inline PDF and image reach Anthropic as document and image blocks, byte-exact", async () => {
    const genai = new GoogleGenAI({ apiKey: key.secret, httpOptions: { baseUrl: edge.url } });
    const result = await genai.models.generateContent({
      model: "anthropic/claude-test",
      contents: [
        {
          role: "user",
          parts: [
            { text: "read" },
            { inlineData: { mimeType: "application/pdf", data: PDF } },
            { inlineData: { mimeType: "image/png", data: PNG } },
          ],
        },
      ],
    });
    expect(result.candidates?.[0]?.finishReason).toBe("STOP");
    expect(anthropicParts()).toEqual([
      { type: "document", source: { type: "base64", media_type: "application/pdf", data: PDF } },
      { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
    ]);
  });
});

describe("official SDKs at their defaults, every provider format (issue 32)", () => {
  const anthropicDocument = (model: string) =>
    new Anthropic({ apiKey: key.secret, baseURL: edge.url, maxRetries: 0 }).messages.create({
      model,
      max_tokens: 50,
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "summarise" },
            { type: "document", source: { type: "base64", media_type: "application/pdf", data: PDF } },
          ],
        },
      ],
    });
  const genaiInline = (model: string) =>
    new GoogleGenAI({ apiKey: key.secret, httpOptions: { baseUrl: edge.url } }).models.generateContent({
      model,
      contents: [
        {
          role: "user",
          parts: [
            { text: "read" },
            { inlineData: { mimeType: "application/pdf", data: PDF } },
            { inlineData: { mimeType: "image/png", data: PNG } },
          ],
        },
      ],
    });

  it("@anthropic-ai/sdk: a PDF document reaches Anthropic as sent and OpenAI as a file part, byte-exact", async () => {
    expect((await anthropicDocument("anthropic/claude-test")).stop_reason).toBe("end_turn");
    expect(anthropicParts()).toEqual([
      { type: "document", source: { type: "base64", media_type: "application/pdf", data: PDF } },
    ]);
    expect((await anthropicDocument("openai/gpt-4o-mini")).stop_reason).toBe("end_turn");
    expect(((lastBody(edge.primary).messages as Json[])[0] as { content: Json[] }).content[1]).toEqual({
      type: "file",
      file: { file_data: `data:application/pdf;base64,${PDF}` },
    });
  });

  it("@google/genai: inline PDF and image reach Gemini as sent and OpenAI as file and image parts, byte-exact", async () => {
    expect((await genaiInline("google/gemini-test")).candidates?.[0]?.finishReason).toBe("STOP");
    expect(geminiParts()).toEqual([
      { inlineData: { mimeType: "application/pdf", data: PDF } },
      { inlineData: { mimeType: "image/png", data: PNG } },
    ]);
    expect((await genaiInline("openai/gpt-4o-mini")).candidates?.[0]?.finishReason).toBe("STOP");
    expect(((lastBody(edge.primary).messages as Json[])[0] as { content: Json[] }).content.slice(1)).toEqual([
      { type: "file", file: { file_data: `data:application/pdf;base64,${PDF}` } },
      { type: "image_url", image_url: { url: `data:image/png;base64,${PNG}` } },
    ]);
  });
});

describe("with the edge's own fetcher (the guarded one connect.ts wires in)", () => {
  let plain: EdgeHarness;
  beforeAll(async () => {
    plain = await startEdgeHarness({ keys: [key], settings: { keepAliveMs: 100 } });
  });
  afterAll(async () => {
    await plain?.stop();
  });

  const loopbackImage = { type: "image_url", image_url: { url: "http://127.0.0.1/cat.png" } };

  it("an image URL on a loopback address for Gemini is refused by name before admission; Anthropic still gets the URL", async () => {
    const send = (model: string) =>
      fetch(`${plain.url}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${key.secret}`, "content-type": "application/json" },
        body: JSON.stringify({
          model,
          messages: [{ role: "user", content: [{ type: "text", text: "x" }, loopbackImage] }],
        }),
      });
    const refused = await send("google/gemini-test");
    expect(refused.status).toBe(400);
    expect(await refused.text()).toMatch(
      /content\[1\] \(image URL\).*loopback address, which media fetches may not reach/,
    );
    expect(plain.gemini.requests()).toHaveLength(0);
    // Anthropic takes image URLs itself: nothing is fetched on the caller's behalf.
    expect((await send("anthropic/claude-test")).status).toBe(200);
    const pdfUrl = await fetch(`${plain.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key.secret}`, "content-type": "application/json" },
      body: JSON.stringify({
        model: "openai/gpt-4o-mini",
        messages: [
          { role: "user", content: [{ type: "file", file: { file_data: "https://10.0.0.1/a.pdf" } }] },
        ],
      }),
    });
    expect(pdfUrl.status).toBe(400);
    expect(await pdfUrl.text()).toMatch(/content\[0\] \(file URL\).*private-network address/);
    expect(plain.primary.requests()).toHaveLength(0);
  });
});
