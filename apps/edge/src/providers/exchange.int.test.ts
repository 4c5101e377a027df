import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exchangeChat, type WireDialect } from "./exchange.js";
import { UpstreamHttp } from "./http.js";
import { openAiStreamEvents } from "./openai-compatible/stream.js";
import type { StreamEvent } from "./types.js";

const chunk = (content: string, finish: string | null) =>
  `data: ${JSON.stringify({ id: "up-1", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: { content }, finish_reason: finish }] })}\n\n`;

// `[DONE]` goes out before the body's end (the chunked terminator comes a little later), as it can on
// a real network: the dialect stops reading at `[DONE]` while the body is still open.
function sseServer(): Server {
  return createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/event-stream" });
    response.write(chunk("Hi", null));
    response.write(chunk("", "stop"));
    response.write("data: [DONE]\n\n");
    setTimeout(() => response.end(), 20);
  });
}

const dialect: WireDialect = {
  request: () => ({ path: "/chat/completions", headers: { "content-type": "application/json" }, body: "{}" }),
  parse: () => {
    throw new Error("not used");
  },
  events: openAiStreamEvents,
};

async function streamOnce(http: UpstreamHttp, client = new AbortController().signal): Promise<StreamEvent[]> {
  const call = { request: { model: "m", messages: [] }, upstreamModel: "m", stream: true, signal: client };
  const result = await exchangeChat(http, dialect, call);
  if (!result.ok || !result.stream) throw new Error("expected a stream");
  const events: StreamEvent[] = [];
  for await (const event of result.events) events.push(event);
  return events;
}

describe("exchangeChat streams", () => {
  let server: Server;
  let http: UpstreamHttp;
  let connections = 0;

  beforeAll(async () => {
    server = sseServer();
    server.on("connection", () => connections++);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    http = new UpstreamHttp(`http://127.0.0.1:${port}/v1`, {
      connectMs: 2000,
      firstByteMs: 2000,
      totalMs: 5000,
    });
  });

  afterAll(async () => {
    await http.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("ends at [DONE] and reads the rest of the body off, so the next stream reuses the connection", async () => {
    const first = await streamOnce(http);
    expect(first.map((event) => event.type)).toEqual(["raw", "raw"]);
    // The rest of the body (the server ends it 20 ms after [DONE]) is read off: the connection is idle.
    await expect.poll(() => http.idleConnections, { timeout: 10_000 }).toBe(1);
    const second = await streamOnce(http);
    expect(second).toHaveLength(2);
    expect(connections).toBe(1);
  });
});
