import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { SseWriter } from "./sse-writer.js";

// The SSE writer on a real HTTP server, read by a raw TCP client that sees the chunked framing: what
// one upstream read produces must leave as one chunk of the body, not one chunk per frame.

type Script = (writer: SseWriter) => Promise<void>;

const servers: Array<{ close(): void }> = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

async function serve(script: Script, keepAliveMs = 60_000): Promise<number> {
  const app = express();
  app.get("/", (_request, response) => {
    const writer = new SseWriter(response, keepAliveMs);
    writer.arm();
    void script(writer).then(() => writer.end());
  });
  const server = app.listen(0, "127.0.0.1");
  servers.push(server);
  await new Promise((resolve) => server.once("listening", resolve));
  return (server.address() as AddressInfo).port;
}

/** The raw response, and the sizes of its body's chunks in order (the final 0 left out). */
async function rawChunks(port: number): Promise<{ head: string; chunks: string[] }> {
  const raw = await new Promise<string>((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write("GET / HTTP/1.1\r\nHost: test\r\n\r\n"));
    let text = "";
    socket.setEncoding("utf8");
    // SSE responses keep the connection alive: the body's last chunk, not the socket's end, is the end.
    socket.on("data", (data: string) => {
      text += data;
      if (text.endsWith("\r\n0\r\n\r\n")) {
        socket.destroy();
        resolve(text);
      }
    });
    socket.on("error", reject);
  });
  const split = raw.indexOf("\r\n\r\n");
  let body = raw.slice(split + 4);
  const chunks: string[] = [];
  for (;;) {
    const lineEnd = body.indexOf("\r\n");
    const size = Number.parseInt(body.slice(0, lineEnd), 16);
    if (!size) break;
    chunks.push(body.slice(lineEnd + 2, lineEnd + 2 + size));
    body = body.slice(lineEnd + 2 + size + 2);
  }
  return { head: raw.slice(0, split), chunks };
}

const frame = (index: number) => `data: {"n":${index}}\n\n`;
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe("SseWriter", () => {
  it("sends the frames of one tick as one chunk and the last frames with the end", async () => {
    const port = await serve(async (writer) => {
      for (let index = 0; index < 20; index++) writer.write(frame(index));
      await nextTurn();
      writer.write(frame(20));
      writer.write("data: [DONE]\n\n");
    });
    const { head, chunks } = await rawChunks(port);
    expect(head).toMatch(/^HTTP\/1\.1 200/);
    expect(head.toLowerCase()).toContain("content-type: text/event-stream");
    expect(chunks).toEqual([
      Array.from({ length: 20 }, (_, index) => frame(index)).join(""),
      `${frame(20)}data: [DONE]\n\n`,
    ]);
  });

  it("sends frames written in different turns as separate chunks, in order", async () => {
    const port = await serve(async (writer) => {
      for (let index = 0; index < 3; index++) {
        writer.write(frame(index));
        await nextTurn();
      }
    });
    expect((await rawChunks(port)).chunks).toEqual([frame(0), frame(1), frame(2)]);
  });

  it("sends a keep-alive comment when nothing else was written for keepAliveMs", async () => {
    const port = await serve(async (writer) => {
      await new Promise((resolve) => setTimeout(resolve, 120));
      writer.write(frame(0));
    }, 50);
    const { chunks } = await rawChunks(port);
    expect(chunks[0]).toBe(": keep-alive\n\n");
    expect(chunks.at(-1)).toBe(frame(0));
  });

  it("hands back a promise once the socket's buffer is full, resolved when the client reads", async () => {
    const big = `data: ${"x".repeat(64 * 1024)}\n\n`;
    let waited = 0;
    const port = await serve(async (writer) => {
      for (let index = 0; index < 64; index++) {
        const full = writer.write(big);
        if (full) {
          waited++;
          await full;
        } else await nextTurn();
      }
    });
    const { chunks } = await rawChunks(port);
    expect(chunks.join("")).toBe(big.repeat(64));
    expect(waited).toBeGreaterThan(0);
  });
});
