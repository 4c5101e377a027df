import { GatewayError } from "@gw/errors";
import { describe, expect, it } from "vitest";
import type { ChatRequest } from "../canonical/chat-request.js";
import { pdfPart } from "../test/pdf.js";
import { withPdfText } from "./file-parser.js";

// The file-parser plugin's text engine: a PDF `file` part becomes a text part with the PDF's text.

const ask = (parts: Record<string, unknown>[]): ChatRequest => ({
  model: "m",
  messages: [{ role: "user", content: [{ type: "text", text: "Summarise:" }, ...parts] as never }],
});

const refusal = async (request: ChatRequest): Promise<GatewayError> => {
  const error = await withPdfText(request).catch((thrown: unknown) => thrown);
  expect(error).toBeInstanceOf(GatewayError);
  return error as GatewayError;
};

describe("withPdfText", () => {
  it("replaces a PDF part with its extracted text, every page, naming the file", async () => {
    const request = ask([pdfPart(["Quarterly revenue rose", "Costs fell (slightly)"], "q3.pdf")]);
    const parsed = await withPdfText(request);
    const parts = parsed.messages[0]?.content as unknown as { type: string; text: string }[];
    expect(parts.map((part) => part.type)).toEqual(["text", "text"]);
    expect(parts[1]?.text).toContain("q3.pdf (PDF, 2 pages");
    expect(parts[1]?.text).toContain("Quarterly revenue rose");
    expect(parts[1]?.text).toContain("Costs fell (slightly)");
  });

  it("leaves a request without PDFs as it is (the same object), and other files to the translation", async () => {
    const plain = ask([]);
    expect(await withPdfText(plain)).toBe(plain);
    const others = ask([
      { type: "file", file: { file_id: "file-abc" } },
      { type: "file", file: { filename: "a.txt", file_data: "data:text/plain;base64,aGk=" } },
    ]);
    expect(await withPdfText(others)).toBe(others);
  });

  it("refuses a PDF that does not parse, naming the part", async () => {
    const broken = ask([
      { type: "file", file: { filename: "x.pdf", file_data: "data:application/pdf;base64,bm90IGEgcGRm" } },
    ]);
    const error = await refusal(broken);
    expect(error.status).toBe(400);
    expect(error.message).toBe("messages[0].content[1].file.file_data: not a readable PDF");
  });

  it("refuses a PDF given by URL (the file-parser reads data URLs; the gateway fetches nothing here)", async () => {
    const byUrl = ask([
      { type: "file", file: { filename: "x.pdf", file_data: "https://example.com/x.pdf" } },
    ]);
    expect((await refusal(byUrl)).message).toContain("base64 data URLs, not URLs");
  });
});
