import { request } from "node:http";
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { createSiweMessage, generateSiweNonce } from "viem/siwe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HostileGateway, startHostileGateway } from "./hostile/gateway.js";
import { eventually, runCli } from "./processes.js";

// Issue 33: 150 fresh wallets made 150 accounts in 2 s from one address. Account creation is now
// bounded per client address and overall (ACCOUNT_CREATION_*), shared by every process (counted in
// the keys app's PostgreSQL), and wallet accounts nobody used are swept (ACCOUNT_SWEEP_*). The
// embedded default as a process, signed into through the edge with real SIWE signatures; the second
// and third client addresses are other loopback addresses (127.0.0.2, 127.0.0.3) the requests leave from.

interface Answer {
  status: number;
  retryAfter: string | undefined;
  body: {
    jwt?: string;
    tenant_id?: string;
    error?: { code?: number; message?: string; metadata?: Record<string, unknown> };
  };
}

/** POST /v1/x402/auth from `localAddress`, with any extra headers a hostile client likes to send. */
function post(gateway: HostileGateway, body: string, localAddress: string, headers: Record<string, string>) {
  return new Promise<Answer>((resolve, reject) => {
    const outgoing = request(
      `${gateway.url}/v1/x402/auth`,
      { method: "POST", localAddress, headers: { "content-type": "application/json", ...headers } },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          text += chunk;
        });
        response.on("end", () => {
          const retryAfter = response.headers["retry-after"];
          resolve({ status: response.statusCode ?? 0, retryAfter, body: JSON.parse(text) as Answer["body"] });
        });
      },
    );
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

async function signIn(
  gateway: HostileGateway,
  wallet: PrivateKeyAccount,
  options: { from?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const host = new URL(gateway.url).host;
  const message = createSiweMessage({
    domain: host,
    address: wallet.address,
    uri: `${gateway.url}/v1/x402/auth`,
    version: "1",
    chainId: 8453,
    nonce: generateSiweNonce(),
    issuedAt: new Date(),
  });
  const body = JSON.stringify({ message, signature: await wallet.signMessage({ message }) });
  return post(gateway, body, options.from ?? "127.0.0.1", options.headers ?? {});
}

const freshWallet = () => privateKeyToAccount(generatePrivateKey());

describe("hostile sign-up: account creation is bounded (ACCOUNT_CREATION_*)", () => {
  const PER_ADDRESS = 5;
  const GLOBAL = 8;
  let gateway: HostileGateway;

  beforeAll(async () => {
    gateway = await startHostileGateway({
      env: { ACCOUNT_CREATION_PER_ADDRESS: String(PER_ADDRESS), ACCOUNT_CREATION_GLOBAL: String(GLOBAL) },
    });
  }, 240_000);

  afterAll(async () => {
    await gateway?.stop();
  });

  it("40 fresh wallets at once from one address make 5 accounts; the rest get 429 with Retry-After, whatever headers they forge", async () => {
    const wallets = Array.from({ length: 40 }, freshWallet);
    // Each request claims another client address: neither header may choose the bucket it counts in.
    const answers = await Promise.all(
      wallets.map((wallet, index) =>
        signIn(gateway, wallet, {
          headers: { "x-forwarded-for": `198.51.100.${index}`, "x-gw-client-address": `203.0.113.${index}` },
        }),
      ),
    );
    const created = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(created).toHaveLength(PER_ADDRESS);
    expect(refused).toHaveLength(wallets.length - PER_ADDRESS);
    for (const answer of refused) {
      expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(answer.retryAfter)).toBeLessThanOrEqual(3_600);
      // The route's own error shape (OpenRouter's: numeric code, reason in metadata).
      expect(answer.body.error).toMatchObject({
        code: 429,
        metadata: { reason: "account_creation_limited", scope: "address" },
      });
    }
    expect(gateway.output()).not.toMatch(/"level":50|uncaught/i);
  });

  it("an existing wallet signs in again from the limited address; another address still creates accounts", async () => {
    const existing = freshWallet();
    const second = await signIn(gateway, existing, { from: "127.0.0.2" });
    expect(second.status).toBe(200);
    expect((await signIn(gateway, existing, { from: "127.0.0.1" })).status).toBe(200);
    expect((await signIn(gateway, freshWallet(), { from: "127.0.0.1" })).status).toBe(429);
    // 127.0.0.2 has made 1 of its 5; the gateway 6 of its 8.
    expect((await signIn(gateway, freshWallet(), { from: "127.0.0.2" })).status).toBe(200);
    expect((await signIn(gateway, freshWallet(), { from: "127.0.0.2" })).status).toBe(200);
  });

  it("the global limit refuses a third address once the gateway made its 8, and says so", async () => {
    const third = await signIn(gateway, freshWallet(), { from: "127.0.0.3" });
    expect(third.status).toBe(429);
    expect(Number(third.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(third.body.error).toMatchObject({
      code: 429,
      metadata: { reason: "account_creation_limited", scope: "global" },
    });
  });
});

describe("the sweep of unused wallet accounts (ACCOUNT_SWEEP_*)", () => {
  let gateway: HostileGateway;
  let operatorToken = "";

  beforeAll(async () => {
    gateway = await startHostileGateway({
      env: { ACCOUNT_SWEEP_AFTER_S: "10", ACCOUNT_SWEEP_INTERVAL_S: "1" },
    });
    // Made before the clock matters: the credit below goes through the admin API, in milliseconds.
    const created = await runCli(
      "apps/standalone/dist/cli/main.js",
      ["operator-token", "create", "--name", "sweep", "--json"],
      { GW_DATA_DIR: gateway.dataDir, DATABASE_URL: "" },
    );
    operatorToken = (JSON.parse(created) as { token: string }).token;
  }, 240_000);

  afterAll(async () => {
    await gateway?.stop();
  });

  const keyStatus = async (jwt: string) =>
    (await fetch(`${gateway.url}/v1/key`, { headers: { authorization: `Bearer ${jwt}` } })).status;

  it("removes an account that never paid or used anything and refuses its JWT on the edge; a paid one stays", async () => {
    const started = Date.now();
    // The payer first: by the time the idle wallet is swept, the payer has been idle longer still.
    const payer = await signIn(gateway, freshWallet());
    expect(payer.status).toBe(200);
    const credit = await fetch(`${gateway.url}/api/v1/admin/accounts/${payer.body.tenant_id}/credits`, {
      method: "POST",
      headers: { authorization: `Bearer ${operatorToken}`, "content-type": "application/json" },
      body: JSON.stringify({ amount: "1", kind: "grant", reason: "sweep test" }),
    });
    expect(credit.status).toBe(201);
    const idle = await signIn(gateway, freshWallet());
    expect(idle.status).toBe(200);
    expect(await keyStatus(idle.body.jwt ?? "")).toBe(200);
    // Idle for 10 s, swept within a round or two: its implicit key is gone, on the edge too.
    await eventually(async () => ((await keyStatus(idle.body.jwt ?? "")) === 401 ? true : undefined), 45_000);
    expect(await keyStatus(payer.body.jwt ?? "")).toBe(200);
    // The payer's wallet was idle past the sweep's period too: only its credit kept it.
    expect(Date.now() - started).toBeGreaterThan(10_000);
  }, 120_000);
});
