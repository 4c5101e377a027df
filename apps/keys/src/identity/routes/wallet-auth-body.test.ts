import { connect } from "node:net";
import { errorHandler, type Listening, listen } from "@gw/http";
import { silentLogger } from "@gw/logger";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { walletAuthBody } from "./wallet-auth.js";

// The sign-in route reads its body itself, before the shared body layer: it needs that layer's bounds
// too. Found by the management hostile-input suite: a body that never completed was held forever.

const TIMEOUT_MS = 300;
let server: Listening;

beforeAll(async () => {
  const app = express();
  app.post("/v1/x402/auth", walletAuthBody(TIMEOUT_MS), (request, response) => {
    response.json({ length: String(request.body).length });
  });
  app.use(errorHandler(silentLogger()));
  server = await listen(app, "127.0.0.1", 0);
});

afterAll(() => server.close());

/** Sends the headers and half of the announced body, then nothing; resolves with what comes back. */
function stalledPost(): Promise<{ text: string; elapsedMs: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(Number(new URL(server.url).port), "127.0.0.1");
    let text = "";
    socket.on("connect", () =>
      socket.write('POST /v1/x402/auth HTTP/1.1\r\nhost: x\r\ncontent-length: 100\r\n\r\n{"message":'),
    );
    socket.on("data", (chunk: Buffer) => {
      text += chunk.toString();
    });
    socket.on("close", () => resolve({ text, elapsedMs: Date.now() - started }));
    socket.on("error", reject);
    setTimeout(() => socket.destroy(), 10_000);
  });
}

describe("wallet sign-in body reader", () => {
  it("answers a body that never completes with 408 body_timeout after the timeout and closes", async () => {
    const { text, elapsedMs } = await stalledPost();
    expect(text).toMatch(/^HTTP\/1\.1 408/);
    expect(text).toContain('"code":408,"metadata":{"reason":"body_timeout"}');
    expect(elapsedMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);
    expect(elapsedMs).toBeLessThan(5_000);
  });

  it("still reads a complete body as text", async () => {
    const response = await fetch(`${server.url}/v1/x402/auth`, { method: "POST", body: "not json" });
    expect(await response.json()).toEqual({ length: 8 });
  });
});
