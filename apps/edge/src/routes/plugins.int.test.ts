import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { testEndpoint, testModel } from "../test/catalog.js";
import { type EdgeHarness, startEdgeHarness } from "../test/harness.js";
import { readError } from "../test/http.js";
import { pdfPart } from "../test/pdf.js";
import { testKey } from "../test/principals.js";
import { usageEventFor } from "../test/usage.js";

// OpenRouter's plugins and transforms on every surface that documents them: served, or a 400 in the
// surface's own shape naming the plugin, transform, option or engine. Never a silent 200.

const key = testKey("acct-plugins");
let edge: EdgeHarness;

beforeAll(async () => {
  edge = await startEdgeHarness({
    keys: [key],
    // Small contexts, so a test conversation does not fit without middle-out.
    extraModels: [
      testModel("test/small", [
        testEndpoint("openai", {
          upstreamModel: "gpt-4o-mini",
          contextLength: 2_000,
          maxCompletionTokens: 500,
        }),
      ]),
      // Reads text only (the catalogue's input_modalities): a PDF reaches it as text, audio is refused.
      testModel("test/text-only", [
        testEndpoint("openai", { upstreamModel: "gpt-4o-mini", inputModalities: ["text"] }),
      ]),
      testModel("anthropic/claude-small", [
        testEndpoint("anthropic", {
          upstreamModel: "claude-test",
          contextLength: 2_000,
          maxCompletionTokens: 500,
        }),
      ]),
    ],
  });
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

function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${edge.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${key.secret}`, "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

const MODEL = "openai/gpt-4o-mini";
const chat = (extra: Record<string, unknown>) =>
  post("/v1/chat/completions", { model: MODEL, messages: [{ role: "user", content: "hi" }], ...extra });

/** The OpenAI-shaped surfaces: chat completions, legacy completions, responses. */
const OPENAI_SURFACES: ReadonlyArray<[string, (extra: Record<string, unknown>) => Promise<Response>]> = [
  ["chat completions", chat],
  ["legacy completions", (extra) => post("/v1/completions", { model: MODEL, prompt: "hi", ...extra })],
  ["responses", (extra) => post("/v1/responses", { model: MODEL, input: "hi", ...extra })],
];

async function expectRefused(response: Response, field: string, text: string): Promise<void> {
  const error = await readError(response);
  expect(error.status).toBe(400);
  expect(error.message).toContain(field);
  expect(error.message).toContain(text);
  expect(error.metadata?.field).toBe(field);
}

describe.each(OPENAI_SURFACES)("plugins and transforms on %s", (_name, send) => {
  it("refuses a plugin it does not serve, naming it, and calls no provider", async () => {
    const response = await send({ plugins: [{ id: "response-healing" }] });
    await expectRefused(response, "plugins[0].id", 'unsupported plugin "response-healing"');
    expect(edge.primary.requests()).toHaveLength(0);
  });

  it("refuses the web plugin while no search provider is configured", async () => {
    await expectRefused(await send({ plugins: [{ id: "web" }] }), "plugins[0]", "web plugin");
  });

  it("refuses a transform other than middle-out, naming it", async () => {
    const response = await send({ transforms: ["middle-out", "squash"] });
    await expectRefused(response, "transforms[1]", 'unsupported transform "squash"');
  });

  it("refuses malformed plugins and transforms by field", async () => {
    expect((await readError(await send({ plugins: { id: "web" } }))).status).toBe(400);
    expect((await readError(await send({ plugins: [{ name: "web" }] }))).message).toContain("plugins[0].id");
    expect((await readError(await send({ transforms: "middle-out" }))).message).toContain("transforms");
  });

  it("refuses an option a plugin does not have, and an engine it does not offer", async () => {
    await expectRefused(
      await send({ plugins: [{ id: "file-parser", pdf: { engine: "mistral-ocr" } }] }),
      "plugins[0].pdf.engine",
      "mistral-ocr",
    );
    await expectRefused(
      await send({ plugins: [{ id: "file-parser", pdf: { engine: "tesseract" } }] }),
      "plugins[0].pdf.engine",
      'unsupported PDF engine "tesseract"',
    );
    await expectRefused(await send({ plugins: [{ id: "file-parser", ocr: true }] }), "plugins[0]", "ocr");
  });

  it("serves a plugin sent with enabled: false (it asks for nothing) and empty lists", async () => {
    const response = await send({ plugins: [{ id: "response-healing", enabled: false }], transforms: [] });
    expect(response.status).toBe(200);
  });
});

describe("plugins on the Gemini surface (the gateway's OpenRouter fields are taken on every surface)", () => {
  const generate = (extra: Record<string, unknown>) =>
    post(
      "/v1beta/models/google/gemini-test:generateContent",
      {
        contents: [{ role: "user", parts: [{ text: "hi" }] }],
        ...extra,
      },
      { "x-goog-api-key": key.secret },
    );

  it("refuses an unknown plugin in Gemini's error shape, and serves a disabled one", async () => {
    const refused = await generate({ plugins: [{ id: "response-healing" }] });
    expect(refused.status).toBe(400);
    const body = (await refused.json()) as { error: { code: number; status: string; message: string } };
    expect(body.error.status).toBe("INVALID_ARGUMENT");
    expect(body.error.message).toContain('unsupported plugin "response-healing"');
    expect(edge.gemini.requests()).toHaveLength(0);
    const served = await generate({ plugins: [{ id: "web", enabled: false }] });
    expect(served.status).toBe(200);
    expect(edge.gemini.requests(1)[0]?.body).not.toHaveProperty("plugins");
  });
});

describe("the :online variant", () => {
  it("is the web plugin: refused by name (not a 404) while no search provider is configured", async () => {
    const response = await post("/v1/chat/completions", {
      model: `${MODEL}:online`,
      messages: [{ role: "user", content: "news?" }],
    });
    await expectRefused(response, "model", ":online");
  });
});

describe("plugins on the Anthropic Messages surface (OpenRouter documents them there)", () => {
  const messages = (extra: Record<string, unknown>) =>
    post(
      "/v1/messages",
      {
        model: "anthropic/claude-test",
        max_tokens: 50,
        messages: [{ role: "user", content: "hi" }],
        ...extra,
      },
      { "anthropic-version": "2023-06-01" },
    );

  it("refuses an unknown plugin in Anthropic's error shape", async () => {
    const response = await messages({ plugins: [{ id: "moderation" }] });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { type: string; error: { type: string; message: string } };
    expect(body.type).toBe("error");
    expect(body.error.type).toBe("invalid_request_error");
    expect(body.error.message).toContain('unsupported plugin "moderation"');
    expect(edge.anthropic.requests()).toHaveLength(0);
  });

  it("serves an Anthropic endpoint the native body without the gateway's plugin fields", async () => {
    const response = await messages({ plugins: [{ id: "web", enabled: false }], transforms: [] });
    expect(response.status).toBe(200);
    const [upstream] = edge.anthropic.requests(1);
    expect(upstream?.body).not.toHaveProperty("plugins");
    expect(upstream?.body).not.toHaveProperty("transforms");
  });
});

/** About 3,000 tokens over 31 turns: more than the 2,000-token endpoints hold, less than twice. */
function longConversation(): { role: "user" | "assistant"; content: string }[] {
  return Array.from({ length: 31 }, (_, index) => ({
    role: index % 2 === 0 ? ("user" as const) : ("assistant" as const),
    content: `turn ${index}: ${"word ".repeat(75)}`,
  }));
}

describe("transforms: [\"middle-out\"] (OpenRouter's compression to the endpoint's context)", () => {
  const long = { model: "test/small", max_tokens: 100, messages: longConversation() };

  it("without it, a prompt the endpoint cannot hold is the caller's 400", async () => {
    const error = await readError(await post("/v1/chat/completions", long));
    expect(error.status).toBe(400);
    expect(error.reason).toBe("context_length_exceeded");
  });

  it("with it, the endpoint is sent the first and last turns and less of the middle", async () => {
    const response = await post("/v1/chat/completions", { ...long, transforms: ["middle-out"] });
    expect(response.status).toBe(200);
    const [upstream] = edge.primary.requests(1);
    const sent = (upstream?.body as { messages: { content: string }[] } | undefined)?.messages ?? [];
    expect(sent.length).toBeLessThan(31);
    expect(sent[0]?.content.startsWith("turn 0:")).toBe(true);
    expect(sent.at(-1)?.content.startsWith("turn 30:")).toBe(true);
    expect(sent.map((message) => message.content.slice(0, 8))).not.toContain("turn 15:");
    expect(upstream?.body).not.toHaveProperty("transforms");
    // Metered as usual (the usage event does not carry the transform: see docs/openrouter-compatibility.md).
    const event = await usageEventFor(edge, response.headers.get("x-generation-id") ?? "");
    expect(event.attempts.map((attempt) => attempt.provider)).toEqual(["openai"]);
    expect(event.promptTokens).toBeGreaterThan(0);
  });

  it("the context-compression plugin is the same transform, on the Anthropic surface too", async () => {
    const response = await post(
      "/v1/messages",
      { ...long, model: "anthropic/claude-small", plugins: [{ id: "context-compression" }] },
      { "anthropic-version": "2023-06-01" },
    );
    expect(response.status).toBe(200);
    const [upstream] = edge.anthropic.requests(1);
    const sent = (upstream?.body as { messages: unknown[] } | undefined)?.messages ?? [];
    expect(sent.length).toBeLessThan(31);
    expect(upstream?.body).not.toHaveProperty("plugins");
  });
});

describe("the file-parser plugin (OpenRouter's pdf-text engine: the PDF's text is what is sent)", () => {
  const withPdf = (
    model: string,
    pages: string[],
    engine?: string,
  ): Record<string, unknown> & { messages: unknown[] } => ({
    model,
    max_tokens: 100,
    messages: [
      { role: "user", content: [{ type: "text", text: "Summarise this." }, pdfPart(pages, "report.pdf")] },
    ],
    plugins: [{ id: "file-parser", ...(engine ? { pdf: { engine } } : {}) }],
  });

  it("sends the provider the PDF's text in place of the file, and meters it as prompt", async () => {
    const response = await post(
      "/v1/chat/completions",
      withPdf(MODEL, ["Revenue rose 12 percent"], "pdf-text"),
    );
    expect(response.status).toBe(200);
    const [upstream] = edge.primary.requests(1);
    type Sent = { messages: { content: { type: string; text?: string }[] }[] };
    const parts = (upstream?.body as Sent | undefined)?.messages[0]?.content;
    expect(parts?.map((part) => part.type)).toEqual(["text", "text"]);
    expect(parts?.[1]?.text).toContain("Revenue rose 12 percent");
    expect(parts?.[1]?.text).toContain("report.pdf");
    expect(JSON.stringify(upstream?.body)).not.toContain("application/pdf");
    const event = await usageEventFor(edge, response.headers.get("x-generation-id") ?? "");
    expect(event.promptTokens).toBeGreaterThan(5);
  });

  it("counts the extracted text when planning: a PDF too long for the endpoint is the caller's 400", async () => {
    // About 100 characters a page (a line of the page's width), 120 pages: ~3,000 tokens of text.
    const pages = Array.from({ length: 120 }, (_, page) => `page ${page} ${"lorem ipsum dolor ".repeat(5)}`);
    const error = await readError(await post("/v1/chat/completions", withPdf("test/small", pages)));
    expect(error.status).toBe(400);
    expect(error.reason).toBe("context_length_exceeded");
    expect(edge.primary.requests()).toHaveLength(0);
  });

  it("refuses a PDF that does not parse, naming the part, before any provider is called", async () => {
    const body = withPdf(MODEL, ["x"]);
    const part = { type: "file", file: { filename: "x.pdf", file_data: "data:application/pdf;base64,AAAA" } };
    body.messages[0] = { role: "user", content: [{ type: "text", text: "Summarise this." }, part] };
    const error = await readError(await post("/v1/chat/completions", body));
    expect(error.status).toBe(400);
    expect(error.message).toBe("messages[0].content[1].file.file_data: not a readable PDF");
    expect(edge.primary.requests()).toHaveLength(0);
  });
});

describe("media a model does not read (the catalogue's input_modalities)", () => {
  const ask = (model: string, part: unknown, extra: Record<string, unknown> = {}) =>
    post("/v1/chat/completions", {
      model,
      max_tokens: 50,
      messages: [{ role: "user", content: [{ type: "text", text: "What is in this?" }, part] }],
      ...extra,
    });

  it("parses a PDF to text for a model that reads no files, without the plugin being asked for", async () => {
    const response = await ask("test/text-only", pdfPart(["Margins held at 31 percent"], "q3.pdf"));
    expect(response.status).toBe(200);
    const [upstream] = edge.primary.requests(1);
    const sent = JSON.stringify(upstream?.body);
    expect(sent).toContain("Margins held at 31 percent");
    expect(sent).not.toContain("application/pdf");
  });

  it("leaves the PDF to a model that reads files", async () => {
    const response = await ask(MODEL, pdfPart(["Margins held at 31 percent"], "q3.pdf"));
    expect(response.status).toBe(200);
    expect(JSON.stringify(edge.primary.requests(1)[0]?.body)).toContain("application/pdf");
  });

  it("keeps the refusal when the caller asked for the native engine, naming the part", async () => {
    const response = await ask("test/text-only", pdfPart(["x"], "q3.pdf"), {
      plugins: [{ id: "file-parser", pdf: { engine: "native" } }],
    });
    const error = await readError(response);
    expect(error.status).toBe(400);
    expect(error.message).toContain(
      "messages[0].content[1] (file application/pdf) cannot be sent to test/text-only",
    );
    expect(edge.primary.requests()).toHaveLength(0);
  });

  it("refuses audio to a model that reads none before admission, naming the part", async () => {
    const audio = { type: "input_audio", input_audio: { data: "UklGRiQAAABXQVZF", format: "wav" } };
    const error = await readError(await ask("test/text-only", audio));
    expect(error.status).toBe(400);
    expect(error.reason).toBe("untranslatable_request");
    expect(error.message).toBe(
      "messages[0].content[1] (input_audio wav) cannot be sent to test/text-only: the catalogue lists no endpoint of it that reads audio input",
    );
    expect(edge.primary.requests()).toHaveLength(0);
  });
});
