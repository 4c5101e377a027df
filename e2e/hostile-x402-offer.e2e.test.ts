import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createSiweMessage, generateSiweNonce } from "viem/siwe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HostileGateway, startHostileGateway } from "./hostile/gateway.js";
import { type ErrorShape, expectHandled, Tally, type Target } from "./hostile/suite.js";
import { type Answer, rawRequest, send, sendRaw } from "./hostile/wire.js";

// Issue 33: with x402 on, an unauthenticated inference request under a malformed Host was a 500 (the
// 402 offer was built with new URL() on the Host), and the offer's resource.url echoed the request URL,
// `?key=` credentials included, which x402 clients copy into the payment the gateway forwards to the
// facilitator; the sign-in domain came from the Host too. The embedded default as a process with
// X402_ENABLED=true and PUBLIC_BASE_URL unset (its default: its own listening address), over a raw
// socket, since fetch cannot send a malformed Host. The facilitator is never asked for an offer, so
// it points at a port nobody listens on.

const PAY_TO = `0x${"5a".repeat(20)}`;
/** Hosts Node's parser lets through: malformed for new URL(), or a name the caller chose. */
const HOSTS = ["a b", "[::1", "gateway:99999", "a@b", "%", "evil.example", "user:pw@evil.example"];
const SECRET = "sk-query-secret-0123456789";

interface PaidRoute {
  name: string;
  path: string;
  shape: ErrorShape;
  body: unknown;
}

const ROUTES: PaidRoute[] = [
  {
    name: "chat completions",
    path: "/v1/chat/completions",
    shape: "openai",
    body: { model: "openai/gpt-4o-mini", messages: [{ role: "user", content: "hi" }] },
  },
  {
    name: "messages",
    path: "/v1/messages",
    shape: "anthropic",
    body: { model: "anthropic/claude-sonnet-4", max_tokens: 16, messages: [{ role: "user", content: "hi" }] },
  },
  {
    name: "Gemini generateContent",
    path: "/v1beta/models/gemini-2.5-flash:generateContent",
    shape: "gemini",
    body: { contents: [{ role: "user", parts: [{ text: "hi" }] }] },
  },
];

let gateway: HostileGateway;

beforeAll(async () => {
  gateway = await startHostileGateway({
    env: {
      X402_ENABLED: "true",
      X402_FACILITATOR_URL: "http://127.0.0.1:9",
      X402_PAY_TO_EVM: PAY_TO,
      X402_TOPUP_AMOUNTS: "1",
      PUBLIC_BASE_URL: "",
    },
  });
}, 240_000);

afterAll(async () => {
  await gateway?.stop();
});

/** A POST of `body` to `target` under `host`, written byte for byte. */
function post(
  target: string,
  host: string,
  body: unknown,
  headers: [string, string][] = [],
): Promise<Answer> {
  const bytes = rawRequest({
    method: "POST",
    target,
    host,
    headers: [["content-type", "application/json"], ...headers],
    body: Buffer.from(JSON.stringify(body)),
  });
  return sendRaw(gateway.port, bytes);
}

/** The x402 v2 offer of a 402 (its PAYMENT-REQUIRED header), decoded. */
function offerOf(answer: Answer): {
  resource: { url: string };
  extensions: Record<string, { info: unknown }>;
} {
  return JSON.parse(Buffer.from(answer.headers["payment-required"] ?? "", "base64").toString("utf8"));
}

/** The offer names the gateway's own base and the route: no Host, no query, no credential. */
function expectOwnOffer(answer: Answer, route: PaidRoute, label: string, secret: string): void {
  expect(answer.status, `${label}: ${answer.text.slice(0, 300)}`).toBe(402);
  const offer = offerOf(answer);
  expect(offer.resource.url, label).toBe(`${gateway.url}${route.path}`);
  expect(offer.extensions["sign-in-with-x"]?.info, label).toMatchObject({
    domain: new URL(gateway.url).host,
    uri: `${gateway.url}/v1/x402/auth`,
  });
  const whole = `${JSON.stringify(answer.headers)}${answer.text}${JSON.stringify(offer)}`;
  expect(whole, label).not.toContain(secret);
  expect(whole, label).not.toContain("evil.example");
}

describe("hostile input: the 402 offer's URL and sign-in domain (issue 33)", () => {
  const tally = new Tally("x402 offer");
  afterAll(() => {
    console.log(tally.summary());
    expect(tally.serverErrors).toBe(0);
  });
  const target = (shape: ErrorShape): Target => ({
    shape,
    tally,
    state: async () => gateway.upstreamCounts(),
  });

  for (const route of ROUTES) {
    it(`${route.name}: no credential under a malformed or forged Host and a misnamed ?api_key= is a 402 on the gateway's own base`, async () => {
      for (const host of HOSTS) {
        const label = `${route.name} under Host ${JSON.stringify(host)}`;
        const answer = await expectHandled(target(route.shape), label, () =>
          post(`${route.path}?api_key=${SECRET}`, host, route.body),
        );
        expectOwnOffer(answer, route, label, SECRET);
      }
      const alive = await send(gateway.url, { method: "GET", path: "/healthz" });
      expect(alive.status).toBe(200);
    });
  }

  it("a signed-in wallet's JWT sent as ?key= under a forged Host: the offer carries neither", async () => {
    const wallet = privateKeyToAccount(generatePrivateKey());
    const message = createSiweMessage({
      domain: new URL(gateway.url).host,
      address: wallet.address,
      uri: `${gateway.url}/v1/x402/auth`,
      version: "1",
      chainId: 84532,
      nonce: generateSiweNonce(),
      issuedAt: new Date(),
    });
    const signature = await wallet.signMessage({ message });
    const signIn = await send(gateway.url, {
      method: "POST",
      path: "/v1/x402/auth",
      headers: { "sign-in-with-x": Buffer.from(JSON.stringify({ message, signature })).toString("base64") },
    });
    expect(signIn.status, signIn.text).toBe(200);
    const { jwt } = signIn.json as { jwt: string };
    // Gemini's clients send their credential as ?key=; the others' accept it too.
    for (const route of [ROUTES[0], ROUTES[2]] as PaidRoute[]) {
      for (const host of ["evil.example:1", "a b"]) {
        const label = `${route.name}, JWT as ?key= under Host ${JSON.stringify(host)}`;
        const answer = await expectHandled(target(route.shape), label, () =>
          post(`${route.path}?key=${jwt}`, host, route.body),
        );
        expectOwnOffer(answer, route, label, jwt);
        expect(offerOf(answer), label).toMatchObject({ error: "insufficient_credits" });
      }
    }
  });
});
