import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "@gw/db";
import { ed25519 } from "@noble/curves/ed25519";
import { base58 } from "@scure/base";
import OpenAI from "openai";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createSiweMessage, generateSiweNonce } from "viem/siwe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppProcess, eventually, runCli, startProcess, waitForHttp } from "./processes.js";

// Wallet sign-in against the embedded default as a newcomer runs it: no WALLET_JWT_SECRET (one is
// generated into the data directory), PUBLIC_BASE_URL defaulting to the address it listens on. An
// EVM wallet (a viem local account) and a Solana keypair sign in through the edge and call the demo
// model with their JWT through the official openai SDK.

interface SignIn {
  jwt: string;
  tenant_id: string;
  key_id: string;
  account_id: string;
  expires_at: string;
}

describe("wallet sign-in on the embedded default", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "gw-wallet-"));
  let gateway: AppProcess | undefined;
  let url: string;
  let host: string;

  beforeAll(async () => {
    const port = await freePort();
    host = `127.0.0.1:${port}`;
    url = `http://${host}`;
    const env: Record<string, string> = { PORT: String(port), GW_DATA_DIR: dataDir, LOG_LEVEL: "warn" };
    for (const name of [
      "DATABASE_URL",
      "REDIS_URL",
      "KAFKA_BROKERS",
      "OPENAI_API_KEY",
      "WALLET_JWT_SECRET",
      "WALLET_JWT_SECRET_FILE",
      "PUBLIC_BASE_URL",
    ])
      env[name] = "";
    gateway = startProcess("standalone", "apps/standalone/dist/main.js", env);
    await waitForHttp(`${url}/readyz`, gateway, 120_000);
  }, 180_000);

  afterAll(async () => {
    await gateway?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function signIn(init: {
    header?: unknown;
    body?: unknown;
  }): Promise<{ status: number; body: SignIn }> {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (init.header !== undefined)
      headers["sign-in-with-x"] = Buffer.from(JSON.stringify(init.header)).toString("base64");
    const response = await fetch(`${url}/v1/x402/auth`, {
      method: "POST",
      headers,
      body: init.body === undefined ? "" : JSON.stringify(init.body),
    });
    return { status: response.status, body: (await response.json()) as SignIn };
  }

  const addCredits = (accountId: string) =>
    runCli(
      "apps/standalone/dist/cli/main.js",
      ["credits", "add", "--account", accountId, "--amount", "1", "--json"],
      {
        GW_DATA_DIR: dataDir,
        DATABASE_URL: "",
      },
    );

  const chat = (jwt: string) =>
    new OpenAI({ apiKey: jwt, baseURL: `${url}/v1`, maxRetries: 0 }).chat.completions.create({
      model: "demo/echo",
      messages: [{ role: "user", content: "Hello from a wallet" }],
    });

  it("generates the JWT secret into the data directory, readable by the owner only", () => {
    expect(statSync(join(dataDir, "wallet-jwt.secret")).mode & 0o777).toBe(0o600);
  });

  it("signs an EVM wallet in and serves it from its own balance through the openai SDK", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const message = createSiweMessage({
      domain: host,
      address: account.address,
      uri: `${url}/v1/x402/auth`,
      version: "1",
      chainId: 8453,
      nonce: generateSiweNonce(),
      issuedAt: new Date(),
      statement: "Sign in to the gateway",
    });
    const { status, body } = await signIn({
      header: { message, signature: await account.signMessage({ message }) },
    });
    expect(status).toBe(200);
    expect(body.account_id).toBe(`eip155:8453:${account.address}`);

    // A new wallet account has no credits: the gateway's usual 402, the JWT itself accepted.
    await expect(chat(body.jwt)).rejects.toMatchObject({ status: 402 });
    await addCredits(body.tenant_id);
    const completion = await chat(body.jwt);
    expect(completion.choices[0]?.message.content).toContain("demo provider");

    // Usage is attributed to the wallet's implicit key, read back with the JWT in the other header forms.
    const key = await eventually(async () => {
      const response = await fetch(`${url}/v1/key`, { headers: { "x-api-key": body.jwt } });
      const data = ((await response.json()) as { data: { usage: number } }).data;
      return data.usage > 0 ? data : undefined;
    });
    expect(key.usage).toBeGreaterThan(0);
    const generation = await eventually(async () => {
      const response = await fetch(`${url}/api/v1/generation?id=${completion.id}`, {
        headers: { "x-goog-api-key": body.jwt },
      });
      return response.status === 200
        ? ((await response.json()) as { data: { provider: string } }).data
        : undefined;
    });
    expect(generation.provider).toBe("demo");

    // The operator can give the wallet's account a management key like any account's: it sees the implicit key.
    const created = JSON.parse(
      await runCli(
        "apps/standalone/dist/cli/main.js",
        ["keys", "create", "--account", body.tenant_id, "--name", "ops", "--management", "--json"],
        { GW_DATA_DIR: dataDir, DATABASE_URL: "" },
      ),
    ) as { key: string; key_type: string };
    expect(created.key_type).toBe("management");
    const keys = await fetch(`${url}/api/v1/keys`, { headers: { authorization: `Bearer ${created.key}` } });
    expect(keys.status).toBe(200);
    const listed = ((await keys.json()) as { data: Array<{ hash: string }> }).data.map((key) => key.hash);
    expect(listed).toEqual([body.key_id]);
  });

  it("signs a Solana keypair in (SIWS, base58 signature) and serves it", async () => {
    const secret = ed25519.utils.randomPrivateKey();
    const address = base58.encode(ed25519.getPublicKey(secret));
    const message = [
      `${host} wants you to sign in with your Solana account:`,
      address,
      "",
      `URI: ${url}/v1/x402/auth`,
      "Version: 1",
      "Chain ID: 5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp",
      `Nonce: ${generateSiweNonce()}`,
      `Issued At: ${new Date().toISOString()}`,
    ].join("\n");
    const signature = base58.encode(ed25519.sign(new TextEncoder().encode(message), secret));
    const { status, body } = await signIn({ body: { message, signature } });
    expect(status).toBe(200);
    expect(body.account_id).toBe(`solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp:${address}`);
    await addCredits(body.tenant_id);
    const completion = await chat(body.jwt);
    expect(completion.choices[0]?.message.content).toContain("demo provider");
  });

  it("revokes a wallet's tokens with the operator CLI: the old JWT is refused, a new sign-in works", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const signInNow = async () => {
      const message = createSiweMessage({
        domain: host,
        address: account.address,
        uri: `${url}/v1/x402/auth`,
        version: "1",
        chainId: 8453,
        nonce: generateSiweNonce(),
        issuedAt: new Date(),
      });
      return signIn({ header: { message, signature: await account.signMessage({ message }) } });
    };
    const first = await signInNow();
    const keyStatus = async (jwt: string) => {
      const response = await fetch(`${url}/v1/key`, { headers: { authorization: `Bearer ${jwt}` } });
      return {
        status: response.status,
        body: (await response.json()) as { error?: { metadata?: { reason?: string } } },
      };
    };
    expect((await keyStatus(first.body.jwt)).status).toBe(200);
    const output = await runCli(
      "apps/standalone/dist/cli/main.js",
      ["wallets", "revoke", "--account", first.body.tenant_id, "--json"],
      { GW_DATA_DIR: dataDir, DATABASE_URL: "", KAFKA_BROKERS: "" },
    );
    expect(JSON.parse(output)).toMatchObject({ account_id: first.body.tenant_id, token_version: 1 });
    // No broker here: the edge applies the revocation once its cached principal lapses (seconds).
    const refused = await eventually(async () => {
      const answer = await keyStatus(first.body.jwt);
      return answer.status === 401 ? answer : undefined;
    });
    expect(refused.body.error?.metadata?.reason).toBe("jwt_revoked");
    const again = await signInNow();
    expect((await keyStatus(again.body.jwt)).status).toBe(200);
  });

  it("refuses a proof for another domain and a JWT the gateway did not sign, naming the reason", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const message = createSiweMessage({
      domain: "evil.example",
      address: account.address,
      uri: "https://evil.example/v1/x402/auth",
      version: "1",
      chainId: 8453,
      nonce: generateSiweNonce(),
      issuedAt: new Date(),
    });
    const refused = await signIn({ header: { message, signature: await account.signMessage({ message }) } });
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ error: { metadata: { reason: "invalid_siwx_domain_mismatch" } } });

    const forged = `${Buffer.from('{"alg":"none"}').toString("base64url")}.${Buffer.from('{"sub":"x"}').toString("base64url")}.`;
    await expect(chat(forged)).rejects.toMatchObject({ status: 401 });
  });
});
