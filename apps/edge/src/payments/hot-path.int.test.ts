import { createServer, type Server } from "node:http";
import { type AddressInfo, connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EdgeHarness, startEdgeHarness } from "../test/harness.js";
import { testKey } from "../test/principals.js";

// With x402 on, a request that carries a credential and no payment takes the path it took before:
// no facilitator call, no payment event, nothing but the usual Admit. (The paid path and its bad
// inputs are tested through the whole gateway: e2e/x402/payments.int.test.ts, e2e/x402.e2e.test.ts.)

describe("x402 on: the hot path of a request that does not pay", () => {
  const key = testKey("acct_hot_path");
  let harness: EdgeHarness;
  let facilitator: Server;
  const facilitatorCalls: string[] = [];
  const paymentEvents: string[] = [];

  beforeAll(async () => {
    facilitator = createServer((request, response) => {
      facilitatorCalls.push(`${request.method} ${request.url}`);
      response.writeHead(500).end();
    });
    await new Promise<void>((resolve) => facilitator.listen(0, "127.0.0.1", resolve));
    harness = await startEdgeHarness({
      keys: [key],
      env: {
        X402_ENABLED: "true",
        X402_FACILITATOR_URL: `http://127.0.0.1:${(facilitator.address() as AddressInfo).port}`,
        X402_PAY_TO_EVM: "0x2096000000000000000000000000000000000001",
        TOPIC_PAYMENTS: "hot-path-payments",
      },
    });
    await harness.bus.subscribe({
      topic: "hot-path-payments",
      groupId: "hot-path-test",
      handler: async (message) => void paymentEvents.push(message.key),
    });
  });

  afterAll(async () => {
    await harness?.stop();
    await new Promise((resolve) => facilitator?.close(resolve));
  });

  it("serves an API key request as before: no facilitator, no payment event, one Admit", async () => {
    const response = await fetch(`${harness.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key.secret}` },
      body: JSON.stringify({ model: "openai/gpt-4o-mini", messages: [{ role: "user", content: "hi" }] }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("payment-response")).toBeNull();
    expect(response.headers.get("server-timing")).toBeNull();
    expect(facilitatorCalls).toEqual([]);
    expect(paymentEvents).toEqual([]);
    expect(harness.billing.admits).toHaveLength(1);
  });

  it("offers a top-up to a request with no credential without asking the facilitator (EVM only)", async () => {
    const response = await fetch(`${harness.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "openai/gpt-4o-mini", messages: [{ role: "user", content: "hi" }] }),
    });
    expect(response.status).toBe(402);
    expect(response.headers.get("payment-required")).toBeTruthy();
    expect(facilitatorCalls).toEqual([]);
  });

  it("answers a malformed Host on a request that gets the offer 400 in the surface's shape, never 500 (issue 33)", async () => {
    const port = new URL(harness.url).port;
    for (const host of ["a b", "[::1", "gateway:99999", "a@b"]) {
      const body = JSON.stringify({
        model: "openai/gpt-4o-mini",
        messages: [{ role: "user", content: "hi" }],
      });
      const head = [
        "POST /v1/chat/completions HTTP/1.1",
        `host: ${host}`,
        "connection: close",
        "content-type: application/json",
        `content-length: ${Buffer.byteLength(body)}`,
      ];
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), "127.0.0.1");
        let text = "";
        socket.on("data", (chunk: Buffer) => {
          text += chunk.toString("utf8");
        });
        socket.on("error", reject);
        socket.on("close", () => resolve(text));
        socket.write(`${head.join("\r\n")}\r\n\r\n${body}`);
      });
      expect(answer.split("\r\n")[0], host).toBe("HTTP/1.1 400 Bad Request");
      const json = JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)) as unknown;
      expect(json, host).toMatchObject({
        error: { type: "invalid_request_error", message: expect.stringContaining("Host") },
      });
    }
    expect(facilitatorCalls).toEqual([]);
  });
});
