import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { EventStreamCodec } from "@smithy/core/event-streams";
import { fromUtf8, toUtf8 } from "@smithy/core/serde";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseChatRequest } from "../canonical/chat-request.js";
import { ProviderRegistry } from "./registry.js";
import { providerSettings } from "./settings.js";
import type { ChatResult, ProviderAdapter, StreamEvent } from "./types.js";

// Issue 31, hostile upstreams: what a broken or malicious cloud endpoint (or a proxy in front of one)
// could send the Bedrock, Vertex and Azure adapters. Each answer must become an upstream failure the
// router can fail over from, or a stream that ends with an error event: never a throw, a hang or a
// message the size of what was sent. A bare HTTP server stands in for the cloud here, because the strict
// fakes only ever send well-formed answers.

const TIMEOUTS = { connectMs: 2_000, firstByteMs: 3_000, totalMs: 6_000 };
const codec = new EventStreamCodec(toUtf8, fromUtf8);
const request = parseChatRequest({ model: "x", messages: [{ role: "user", content: "hi" }], max_tokens: 20 });

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

function frame(type: string, payload: unknown): Buffer {
  const header = (value: string) => ({ type: "string" as const, value });
  return Buffer.from(
    codec.encode({
      headers: {
        ":event-type": header(type),
        ":content-type": header("application/json"),
        ":message-type": header("event"),
      },
      body: Buffer.from(typeof payload === "string" ? payload : JSON.stringify(payload), "utf8"),
    }),
  );
}

const START = frame("messageStart", { role: "assistant" });
const DELTA = frame("contentBlockDelta", { contentBlockIndex: 0, delta: { text: "hel" } });

/** The frames as a live stream sends them: one write each, a moment apart. */
function eventStream(...parts: Buffer[]): Handler {
  return (_req, res) => {
    res.writeHead(200, { "content-type": "application/vnd.amazon.eventstream" });
    const next = (index: number) => {
      if (index === parts.length) return void res.end();
      res.write(parts[index]);
      setTimeout(() => next(index + 1), 20);
    };
    next(0);
  };
}

function body(status: number, text: string, contentType = "application/json"): Handler {
  return (_req, res) => {
    res.writeHead(status, { "content-type": contentType });
    res.end(text);
  };
}

async function complete(adapter: ProviderAdapter | undefined, upstreamModel: string, stream: boolean) {
  const result = await adapter?.chat?.complete({
    request,
    upstreamModel,
    stream,
    signal: AbortSignal.timeout(10_000),
  });
  if (!result) throw new Error("no adapter");
  return result;
}

/** The stream's events; an iteration that throws is a failure of this test. */
async function collect(result: ChatResult): Promise<StreamEvent[]> {
  if (!result.ok || !result.stream) throw new Error(`not a stream: ${JSON.stringify(result)}`);
  const events: StreamEvent[] = [];
  for await (const event of result.events) events.push(event);
  return events;
}

/** A 200 the adapter cannot read: the provider's fault (status 0: no usable answer), the next endpoint may serve. */
const UNREADABLE = { kind: "protocol", status: 0, retryable: true };

function failureOf(result: ChatResult) {
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result).slice(0, 300)}`);
  return result.failure;
}

describe("cloud adapters against a hostile upstream", () => {
  let server: Server;
  let handler: Handler = body(500, "{}");
  let registry: ProviderRegistry;
  const adapter = (id: string) => registry.get(id);

  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on("end", () => handler(req, res));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    registry = ProviderRegistry.fromSettings(
      providerSettings({
        AWS_ACCESS_KEY_ID: "AKIAHOSTILE000000001",
        AWS_SECRET_ACCESS_KEY: "hostile/secret/for/tests/only/0000000000",
        AWS_REGION: "us-east-1",
        BEDROCK_BASE_URL: base,
        VERTEX_ACCESS_TOKEN: "ya29.hostile-token",
        VERTEX_PROJECT: "hostile-project",
        VERTEX_LOCATION: "us-east5",
        VERTEX_BASE_URL: base,
        AZURE_OPENAI_API_KEY: "hostile0123456789abcdef0123456789",
        AZURE_OPENAI_BASE_URL: base,
      }),
      TIMEOUTS,
    );
  });
  beforeEach(() => {
    handler = body(500, "{}");
  });
  afterAll(async () => {
    await registry?.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  describe("Bedrock", () => {
    const LLAMA = "us.meta.llama3-3-70b-instruct-v1:0";

    it("a frame whose checksum is wrong ends the stream with an error, after what came before it", async () => {
      const corrupt = Buffer.from(
        frame("contentBlockDelta", { contentBlockIndex: 0, delta: { text: "lo" } }),
      );
      corrupt.writeUInt8((corrupt.at(-1) ?? 0) ^ 0xff, corrupt.length - 1);
      handler = eventStream(START, DELTA, corrupt);
      const events = await collect(await complete(adapter("amazon-bedrock"), LLAMA, true));
      const text = events.flatMap((event) =>
        event.type === "chunk" ? [event.chunk.choices?.[0]?.delta?.content ?? ""] : [],
      );
      expect(text.join("")).toBe("hel");
      expect(events.at(-1)?.type).toBe("error");
    });

    it("a frame that claims 100 MB and stops, and a frame of non-JSON, end with an error", async () => {
      const huge = Buffer.alloc(12);
      huge.writeUInt32BE(100 * 1024 * 1024, 0);
      handler = eventStream(START, huge);
      expect((await collect(await complete(adapter("amazon-bedrock"), LLAMA, true))).at(-1)?.type).toBe(
        "error",
      );
      handler = eventStream(START, frame("contentBlockDelta", "{not json"));
      expect((await collect(await complete(adapter("amazon-bedrock"), LLAMA, true))).at(-1)?.type).toBe(
        "error",
      );
    });

    it("bytes that are no event stream at all end with an error", async () => {
      handler = body(200, "data: this is SSE, not Bedrock\n\n", "application/vnd.amazon.eventstream");
      expect((await collect(await complete(adapter("amazon-bedrock"), LLAMA, true))).at(-1)?.type).toBe(
        "error",
      );
    });

    it("a 200 whose body is not Converse's JSON is a failure, not a crash", async () => {
      for (const text of ["{not json", "[]", '{"output": 7}', "null"]) {
        handler = body(200, text);
        const failure = failureOf(await complete(adapter("amazon-bedrock"), LLAMA, false));
        expect(failure, text).toMatchObject(UNREADABLE);
      }
    });

    it("an HTML error page and a 5 MB error body are failures with a bounded message", async () => {
      handler = body(403, "<html><body>Forbidden by proxy</body></html>", "text/html");
      const html = failureOf(await complete(adapter("amazon-bedrock"), LLAMA, false));
      expect(html.status).toBe(403);
      handler = body(500, `{"message":"${"x".repeat(5 * 1024 * 1024)}"}`);
      const huge = failureOf(await complete(adapter("amazon-bedrock"), LLAMA, false));
      expect(huge.status).toBe(500);
      expect(JSON.stringify(huge).length).toBeLessThan(20_000);
    });
  });

  describe("Vertex AI", () => {
    it("a broken SSE event and a non-JSON 200 from generateContent", async () => {
      handler = body(200, 'data: {"candidates": [\n\ndata: {broken\n\n', "text/event-stream");
      const events = await collect(await complete(adapter("google-vertex"), "gemini-2.5-flash", true));
      expect(events.at(-1)?.type).toBe("error");
      handler = body(200, "<html>captive portal</html>", "text/html");
      const failure = failureOf(await complete(adapter("google-vertex"), "gemini-2.5-flash", false));
      expect(failure).toMatchObject(UNREADABLE);
    });

    it("an error body that is not Google's shape is a failure with its status", async () => {
      handler = body(429, "[1,2,3]");
      const failure = failureOf(await complete(adapter("google-vertex"), "gemini-2.5-flash", false));
      expect(failure.status).toBe(429);
      expect(failure.retryable).toBe(true);
    });
  });

  describe("Azure OpenAI", () => {
    it("a 200 that is not a chat completion and an error that is not Azure's shape", async () => {
      handler = body(200, '{"choices": "nope"}');
      const odd = failureOf(await complete(adapter("azure"), "gpt-4o", false));
      expect(odd).toMatchObject(UNREADABLE);
      handler = body(400, "plain text, no JSON", "text/plain");
      const refused = failureOf(await complete(adapter("azure"), "gpt-4o", false));
      expect(refused.status).toBe(400);
    });
  });
});
