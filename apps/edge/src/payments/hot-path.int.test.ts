import { createServer, type Server } from "node:http";
import { type AddressInfo, connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EdgeHarness, startEdgeHarness } from "../test/harness.js";
import { testKey } from "../test/principals.js";

// With x402 on, a request that carries a credential and no payment takes the path it took before:
// no facilitator call, no payment event, nothing but the usual Admit. (The paid path and its bad
// inputs are tested through the whole gateway: e2e/x402/payments.int.test.ts, e2e/x402.e2e.test.ts.)

/** The gateway's public base: the offers are built on it, never on the request's Host (issue 33). */
const PUBLIC_BASE = "https://gateway.example:8443";

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
        PUBLIC_BASE_URL: PUBLIC_BASE,
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

  it("builds the offer on PUBLIC_BASE_URL and the route: never the query string or the Host sent (issue 33)", async () => {
    // A malformed Host was a 500 (new URL() threw); a forged one named the caller's host as the
    // sign-in domain; the query string (a misnamed `?api_key=`, a wallet JWT in `?key=`) was echoed into resource.url, which clients copy
    // into the payment the gateway forwards to the facilitator.
    const port = Number(new URL(harness.url).port);
    for (const host of ["a b", "[::1", "gateway:99999", "a@b", "evil.example", "user:pw@evil.example"]) {
      const answer = await rawChat(port, host, "/v1/chat/completions?alt=sse&api_key=sk-query-secret");
      expect(answer.status, host).toBe(402);
      const offer = JSON.parse(
        Buffer.from(answer.headers["payment-required"] ?? "", "base64").toString("utf8"),
      );
      expect(offer.resource.url, host).toBe(`${PUBLIC_BASE}/v1/chat/completions`);
      expect(offer.extensions["sign-in-with-x"].info, host).toMatchObject({
        domain: "gateway.example:8443",
        uri: `${PUBLIC_BASE}/v1/x402/auth`,
      });
      const v1 = JSON.parse(answer.body) as { accepts: Array<{ resource: string }> };
      expect(
        v1.accepts.map((accept) => accept.resource),
        host,
      ).toEqual(v1.accepts.map(() => `${PUBLIC_BASE}/v1/chat/completions`));
      expect(answer.raw, host).not.toContain("sk-query-secret");
      expect(answer.raw, host).not.toContain("evil.example");
    }
    expect(facilitatorCalls).toEqual([]);
  });
});

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  raw: string;
}

/** A chat request written by hand: fetch cannot send a malformed Host. */
async function rawChat(port: number, host: string, target: string): Promise<RawAnswer> {
  const body = JSON.stringify({ model: "openai/gpt-4o-mini", messages: [{ role: "user", content: "hi" }] });
  const head = [
    `POST ${target} HTTP/1.1`,
    `host: ${host}`,
    "connection: close",
    "content-type: application/json",
    `content-length: ${Buffer.byteLength(body)}`,
  ];
  const raw = await new Promise<string>((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let text = "";
    socket.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
    });
    socket.on("error", reject);
    socket.on("close", () => resolve(text));
    socket.write(`${head.join("\r\n")}\r\n\r\n${body}`);
  });
  const [statusLine = "", ...lines] = raw.slice(0, raw.indexOf("\r\n\r\n")).split("\r\n");
  const headers = Object.fromEntries(
    lines.map((line) => [
      line.slice(0, line.indexOf(":")).toLowerCase(),
      line.slice(line.indexOf(":") + 1).trim(),
    ]),
  );
  return {
    status: Number(statusLine.split(" ")[1]),
    headers,
    body: raw.slice(raw.indexOf("\r\n\r\n") + 4),
    raw,
  };
}
