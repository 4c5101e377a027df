import { GatewayError } from "@gw/errors";
import { extractText, getDocumentProxy } from "unpdf";
import type { ChatMessage, ChatRequest } from "../canonical/chat-request.js";

// OpenRouter's `file-parser` plugin with its free text engine (`pdf-text`, its docs' "PDF Inputs"): a
// PDF sent as a `file` content part reaches the model as the text extracted from it, so any model can
// read it. The text is what is sent, so it is what the prompt estimate, the hold and the bill count.
// unpdf is PDF.js packaged for servers: pure JavaScript, no native dependency.

const PDF_DATA_URL = "data:application/pdf;base64,";
/** A page budget against a PDF that would keep the request busy for long (PDF.js parses page by page). */
export const MAX_PDF_PAGES = 500;

interface FilePart {
  type: "file";
  file?: { filename?: unknown; file_data?: unknown; file_id?: unknown } | undefined;
}

/**
 * The request with each PDF `file` part replaced by a text part holding its text; the request itself
 * when it has none. A PDF given by URL or a part that is not a readable PDF is a 400 naming the part;
 * other files (and `file_id`s) are left to the translation, which sends or refuses them by name.
 */
export async function withPdfText(request: ChatRequest): Promise<ChatRequest> {
  let changed = false;
  const messages: ChatMessage[] = [];
  for (const [index, message] of request.messages.entries()) {
    const content = message.content;
    if (!Array.isArray(content)) {
      messages.push(message);
      continue;
    }
    const parts = await Promise.all(
      content.map(async (part, partIndex) => {
        if (part.type !== "file") return part;
        const text = await pdfPartText(part as FilePart, `messages[${index}].content[${partIndex}]`);
        if (text === undefined) return part;
        changed = true;
        return { type: "text", text };
      }),
    );
    messages.push({ ...message, content: parts });
  }
  return changed ? { ...request, messages } : request;
}

async function pdfPartText(part: FilePart, where: string): Promise<string | undefined> {
  const data = part.file?.file_data;
  if (typeof data !== "string") return undefined;
  if (/^https?:\/\//i.test(data))
    refuse(`${where}.file.file_data`, "the file-parser plugin reads PDFs sent as base64 data URLs, not URLs");
  if (!data.startsWith(PDF_DATA_URL)) return undefined;
  const name = typeof part.file?.filename === "string" ? part.file.filename : "document.pdf";
  const bytes = Buffer.from(data.slice(PDF_DATA_URL.length), "base64");
  const { pages, text } = await extractPdf(bytes, `${where}.file.file_data`);
  const body =
    text.trim() === "" ? "(no text layer: a scanned PDF needs an OCR engine, not offered here)" : text;
  return `${name} (PDF, ${pages} ${pages === 1 ? "page" : "pages"}, text extracted by the gateway):\n${body}`;
}

async function extractPdf(bytes: Uint8Array, where: string): Promise<{ pages: number; text: string }> {
  let document: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // No console noise for a broken file: the caller gets the 400 instead.
    document = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
  } catch {
    return refuse(where, "not a readable PDF");
  }
  try {
    if (document.numPages > MAX_PDF_PAGES)
      refuse(where, `the PDF has ${document.numPages} pages; the file-parser reads at most ${MAX_PDF_PAGES}`);
    const { totalPages, text } = await extractText(document, { mergePages: true });
    return { pages: totalPages, text };
  } catch (error) {
    if (error instanceof GatewayError) throw error;
    return refuse(where, "not a readable PDF");
  } finally {
    await document.loadingTask.destroy();
  }
}

function refuse(field: string, message: string): never {
  throw new GatewayError("invalid_request", `${field}: ${message}`, {
    code: "invalid_request",
    metadata: { field },
  });
}
