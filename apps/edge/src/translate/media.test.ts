import { describe, expect, it } from "vitest";
import { type ChatRequest, parseChatRequest } from "../canonical/chat-request.js";
import { translateNative } from "../providers/native.js";
import { anthropicRequestBody } from "./anthropic/from-openai.js";
import { chatRequestFromMessages, parseMessagesRequest } from "./anthropic/messages-request.js";
import { converseRequestBody } from "./bedrock/converse-request.js";
import { geminiRequestBody } from "./gemini/from-openai.js";
import { chatRequestFromGemini, parseGenerateContent } from "./gemini/generate-request.js";
import { mediaRefusal } from "./media-support.js";
import { UntranslatableError } from "./untranslatable.js";

// Media parts across every translated pair: base64 arrives as the caller wrote it, a URL where the target
// fetches it itself, and what a target cannot take is refused naming the part and why.

const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==";
const PDF =
  "JVBERi0xLjQKJcfsj6IKMSAwIG9iago8PC9UeXBlL0NhdGFsb2c+PgplbmRvYmoKdHJhaWxlcgo8PC9Sb290IDEgMCBSPj4KJSVFT0YK";
const WAV = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA=";

type Json = Record<string, unknown>;

const chat = (...content: Json[]): ChatRequest =>
  parseChatRequest({
    model: "m",
    messages: [{ role: "user", content: [{ type: "text", text: "see" }, ...content] }],
  });
const image = (url: string): Json => ({ type: "image_url", image_url: { url } });
const pdf = (data = `data:application/pdf;base64,${PDF}`): Json => ({
  type: "file",
  file: { filename: "report.pdf", file_data: data },
});
const audio: Json = { type: "input_audio", input_audio: { data: WAV, format: "wav" } };
const fileId: Json = { type: "file", file: { file_id: "file-abc123" } };

const anthropicParts = (request: ChatRequest) =>
  (
    (anthropicRequestBody(request, "claude", false).messages as Json[])[0] as { content: Json[] }
  ).content.slice(1);
const geminiParts = (request: ChatRequest) =>
  ((geminiRequestBody(request).contents as Json[])[0] as { parts: Json[] }).parts.slice(1);
const converseParts = (request: ChatRequest) =>
  ((converseRequestBody(request).messages as Json[])[0] as { content: Json[] }).content.slice(1);

const refusedNaming = (run: () => unknown, named: RegExp) => {
  expect(run).toThrow(UntranslatableError);
  expect(run).toThrow(named);
};

describe("chat media parts → Anthropic", () => {
  it("sends images and PDFs as base64 or url sources, byte-exact, the file name as the title", () => {
    const parts = anthropicParts(
      chat(
        image(`data:image/png;base64,${PNG}`),
        image("https://example.com/cat.png"),
        { ...pdf(), cache_control: { type: "ephemeral" } },
        pdf("https://example.com/report.pdf"),
      ),
    );
    expect(parts).toEqual([
      { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
      { type: "image", source: { type: "url", url: "https://example.com/cat.png" } },
      {
        type: "document",
        source: { type: "base64", media_type: "application/pdf", data: PDF },
        title: "report.pdf",
        cache_control: { type: "ephemeral" },
      },
      {
        type: "document",
        source: { type: "url", url: "https://example.com/report.pdf" },
        title: "report.pdf",
      },
    ]);
  });

  it("sends a plain-text file as a text document source", () => {
    const text = Buffer.from("Line one.\nLine two.").toString("base64");
    expect(
      anthropicParts(chat({ type: "file", file: { file_data: `data:text/plain;base64,${text}` } })),
    ).toEqual([
      { type: "document", source: { type: "text", media_type: "text/plain", data: "Line one.\nLine two." } },
    ]);
  });

  it("refuses audio, an OpenAI file_id and other document types, naming the part", () => {
    refusedNaming(
      () => anthropicParts(chat(audio)),
      /messages\[0\]\.content\[1\] \(input_audio wav\).*no audio input/,
    );
    refusedNaming(
      () => anthropicParts(chat(fileId)),
      /content\[1\] \(file_id file-abc123\).*OpenAI's own storage/,
    );
    refusedNaming(
      () => anthropicParts(chat(pdf("data:application/zip;base64,UEsDBA=="))),
      /content\[1\] \(file application\/zip\).*PDF or plain text/,
    );
    refusedNaming(() => anthropicParts(chat(image("data:image/bmp;base64,Qk0="))), /\(image image\/bmp\)/);
  });
});

describe("chat media parts → Gemini", () => {
  it("sends images, PDFs and audio as inlineData, byte-exact", () => {
    expect(geminiParts(chat(image(`data:image/png;base64,${PNG}`), pdf(), audio))).toEqual([
      { inlineData: { mimeType: "image/png", data: PNG } },
      { inlineData: { mimeType: "application/pdf", data: PDF } },
      { inlineData: { mimeType: "audio/wav", data: WAV } },
    ]);
  });

  it("refuses a URL it would need as bytes, an OpenAI file_id and audio formats it has no type for", () => {
    refusedNaming(
      () => geminiParts(chat(image("https://example.com/cat.png"))),
      /content\[1\] \(image URL\)/,
    );
    refusedNaming(() => geminiParts(chat(fileId)), /\(file_id file-abc123\)/);
    refusedNaming(
      () => geminiParts(chat(pdf("data:application/zip;base64,UEsDBA=="))),
      /\(file application\/zip\).*Gemini takes images, PDFs, text documents and audio/,
    );
    expect(geminiParts(chat(pdf("data:text/csv;base64,YSxi")))).toEqual([
      { inlineData: { mimeType: "text/csv", data: "YSxi" } },
    ]);
    refusedNaming(
      () => geminiParts(chat({ type: "input_audio", input_audio: { data: WAV, format: "pcm16" } })),
      /\(input_audio pcm16\).*wav, mp3/,
    );
  });
});

describe("chat media parts → Bedrock Converse", () => {
  it("sends a PDF as a document block with a Converse-safe name, byte-exact", () => {
    expect(converseParts(chat(pdf()))).toEqual([
      { document: { format: "pdf", name: "report", source: { bytes: PDF } } },
    ]);
  });

  it("keeps document names unique in a request, as Converse requires", () => {
    expect(converseParts(chat(pdf(), pdf())).map((block) => (block.document as Json).name)).toEqual([
      "report",
      "report (2)",
    ]);
  });

  it("refuses audio and URLs by name", () => {
    refusedNaming(() => converseParts(chat(audio)), /\(input_audio wav\).*Converse API takes no audio/);
    refusedNaming(() => converseParts(chat(pdf("https://example.com/a.pdf"))), /media bytes only/);
  });
});

describe("Anthropic document blocks → other formats", () => {
  const messages = (...blocks: Json[]) =>
    parseMessagesRequest({ model: "m", max_tokens: 10, messages: [{ role: "user", content: blocks }] });

  it("becomes a canonical file part and reaches Gemini as inlineData, byte-exact", () => {
    const canonical = chatRequestFromMessages(
      messages(
        {
          type: "document",
          source: { type: "base64", media_type: "application/pdf", data: PDF },
          title: "Q3",
        },
        { type: "document", source: { type: "text", media_type: "text/plain", data: "plain words" } },
        { type: "text", text: "summarise" },
      ),
    );
    expect(canonical.messages[0]?.content).toEqual([
      { type: "file", file: { filename: "Q3", file_data: `data:application/pdf;base64,${PDF}` } },
      {
        type: "file",
        file: { file_data: `data:text/plain;base64,${Buffer.from("plain words").toString("base64")}` },
      },
      { type: "text", text: "summarise" },
    ]);
    const parts = (geminiRequestBody(canonical).contents as { parts: Json[] }[])[0]?.parts;
    expect(parts?.[0]).toEqual({ inlineData: { mimeType: "application/pdf", data: PDF } });
  });

  it("keeps citations and context for Anthropic only: set aside by path, other formats excluded", () => {
    const body = messages({
      type: "document",
      source: { type: "url", url: "https://example.com/a.pdf" },
      citations: { enabled: true },
      context: "from the archive",
    });
    const { chat: canonical, untranslated } = translateNative("anthropic", body, chatRequestFromMessages);
    expect(untranslated).toEqual(["messages[0].content[0].citations", "messages[0].content[0].context"]);
    expect(canonical.messages[0]?.content).toEqual([
      { type: "file", file: { file_data: "https://example.com/a.pdf" } },
    ]);
  });

  it("refuses a content source by name", () => {
    refusedNaming(
      () => chatRequestFromMessages(messages({ type: "document", source: { type: "content", content: [] } })),
      /messages\[0\]\.content\[0\]\.source/,
    );
  });
});

describe("Gemini inlineData and fileData → other formats", () => {
  const gemini = (...parts: Json[]) =>
    chatRequestFromGemini(parseGenerateContent({ contents: [{ role: "user", parts }] }), "m", false);

  it("maps inline PDF, audio and image to canonical parts and on to Anthropic, byte-exact", () => {
    const canonical = gemini(
      { inlineData: { mimeType: "application/pdf", data: PDF } },
      { inlineData: { mimeType: "audio/mpeg", data: WAV } },
      { fileData: { mimeType: "image/png", fileUri: "https://example.com/cat.png" } },
    );
    expect(canonical.messages[0]?.content).toEqual([
      { type: "file", file: { file_data: `data:application/pdf;base64,${PDF}` } },
      { type: "input_audio", input_audio: { data: WAV, format: "mp3" } },
      { type: "image_url", image_url: { url: "https://example.com/cat.png" } },
    ]);
    const pdfOnly = gemini({ inlineData: { mimeType: "application/pdf", data: PDF } });
    expect(
      anthropicParts({
        ...pdfOnly,
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: "x" },
              ...((pdfOnly.messages[0]?.content ?? []) as { type: string }[]),
            ],
          },
        ],
      }),
    ).toEqual([{ type: "document", source: { type: "base64", media_type: "application/pdf", data: PDF } }]);
    refusedNaming(
      () => anthropicRequestBody(canonical, "claude", false),
      /\(input_audio mp3\).*no audio input/,
    );
  });

  it("sets a file in Gemini's storage aside by path (Gemini only) and refuses other inline types", () => {
    const body = parseGenerateContent({
      contents: [
        {
          role: "user",
          parts: [
            { text: "what is in it" },
            {
              fileData: {
                mimeType: "video/mp4",
                fileUri: "https://generativelanguage.googleapis.com/v1beta/files/abc",
              },
            },
          ],
        },
      ],
    });
    const { untranslated } = translateNative("gemini", body, (entry) =>
      chatRequestFromGemini(entry, "m", false),
    );
    expect(untranslated).toEqual(["contents[0].parts[1].fileData"]);
    refusedNaming(
      () => gemini({ inlineData: { mimeType: "video/mp4", data: "AAAA" } }),
      /parts\[0\]\.inlineData \(video\/mp4\)/,
    );
  });
});

describe("mediaRefusal (the planner's verdict before admission)", () => {
  it("names the first part a format cannot take, and URLs needing bytes only when nothing fetches them", () => {
    expect(mediaRefusal(chat(audio), "anthropic", true)).toMatch(
      /content\[1\] \(input_audio wav\).*no audio/,
    );
    expect(mediaRefusal(chat(audio), "openai", false)).toBeUndefined();
    expect(mediaRefusal(chat(image("https://x.test/a.png")), "gemini", false)).toMatch(/not enabled/);
    expect(mediaRefusal(chat(image("https://x.test/a.png")), "gemini", true)).toBeUndefined();
    expect(mediaRefusal(chat(image("https://x.test/a.png")), "anthropic", false)).toBeUndefined();
    expect(mediaRefusal(chat(pdf("https://x.test/a.pdf")), "openai", false)).toMatch(/file URL/);
    expect(mediaRefusal(chat(fileId), "gemini", true)).toMatch(/file_id/);
    expect(mediaRefusal(chat(fileId), "openai", false)).toBeUndefined();
  });
});

describe("media every provider refuses: the caller's 400 before anything is sent (hostile suite findings)", () => {
  const refusal = (part: Json) => {
    try {
      return mediaRefusal(chat(part), "openai", true);
    } catch (error) {
      return error instanceof UntranslatableError ? error.message : String(error);
    }
  };

  it("refuses an image URL that is neither http(s) nor a data: URL, naming the field", () => {
    expect(refusal(image("\u0000"))).toMatch(/content\[1\]\.image_url\.url.*data: URL or an http\(s\) URL/);
    expect(refusal(image("file:///etc/passwd"))).toMatch(/image_url\.url/);
    expect(refusal(image("https://x.test/a.png"))).toBeUndefined();
  });

  it("refuses a data: URL whose type is not a MIME type or whose payload is not base64", () => {
    expect(refusal(image(`data:\u0000;base64,${PNG}`))).toMatch(/image_url\.url.*is not a MIME type/);
    expect(refusal(image(`data:image/png;base64,${PNG.slice(0, 8)}\u0000${PNG.slice(8)}`))).toMatch(
      /image_url\.url.*not base64/,
    );
    expect(refusal(pdf(`data:application/pdf;base64,${PDF}%%`))).toMatch(/file\.file_data.*not base64/);
    expect(refusal({ type: "input_audio", input_audio: { data: "UklG\u0000", format: "wav" } })).toMatch(
      /input_audio\.data.*not base64/,
    );
  });

  it("holds OpenAI to its image types, as Anthropic and Gemini are held to theirs", () => {
    expect(refusal(image(`data:image/tiff;base64,${PNG}`))).toMatch(
      /OpenAI takes png, jpeg, webp, gif images, not image\/tiff/,
    );
    expect(refusal(image(`data:image/png;base64,${PNG}`))).toBeUndefined();
  });
});

describe("the request's media parts, read once", () => {
  it("gives every format the same verdict, the refusal of a malformed part included", () => {
    const request = chat(image("\u0000"));
    for (const format of ["openai", "gemini"] as const)
      expect(() => mediaRefusal(request, format, true)).toThrow(/image_url\.url/);
    const fine = chat(image(`data:image/png;base64,${PNG}`));
    expect(mediaRefusal(fine, "openai", true)).toBeUndefined();
    expect(mediaRefusal(fine, "anthropic", true)).toBeUndefined();
  });
});
