import { randomBytes } from "node:crypto";
import { WalletTokens } from "@gw/auth";
import { describeWith } from "@gw/testing";
import { ed25519 } from "@noble/curves/ed25519";
import { base58, base64 } from "@scure/base";
import { sql } from "kysely";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, type KeysHarness, startKeysHarness } from "../../test/harness.js";
import { authenticateKey } from "../keys/authenticate.js";
import { revokeWalletTokens } from "../wallets/revoke.js";
import { formatSiwxMessage, type SiwxFields } from "../wallets/siwx-message.js";

// The sign-in domain is PUBLIC_BASE_URL's host, not the address the app listens on.
const PUBLIC_BASE_URL = "https://gateway.example:8443";
const BASE = new URL(PUBLIC_BASE_URL);
const MODEL_ROUTE = "/api/v1/models/openai/gpt-4o-mini/endpoints";

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

const nonce = () => randomBytes(8).toString("hex");
const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64");

function fields(address: string, overrides: Partial<SiwxFields> = {}): SiwxFields {
  return {
    namespace: "eip155",
    domain: BASE.host,
    address,
    statement: "Sign in to the gateway",
    uri: `${BASE.origin}/v1/x402/auth`,
    version: "1",
    chainId: "8453",
    nonce: nonce(),
    issuedAt: new Date().toISOString(),
    ...overrides,
  };
}

function solanaWallet() {
  const secret = randomBytes(32);
  const address = base58.encode(ed25519.getPublicKey(secret));
  return {
    address,
    fields: (overrides: Partial<SiwxFields> = {}) =>
      fields(address, { namespace: "solana", chainId: "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp", ...overrides }),
    sign: (message: string) => ed25519.sign(new TextEncoder().encode(message), secret),
  };
}

const reason = (answer: Answer) =>
  (answer.body.error as { metadata?: { reason?: string } } | undefined)?.metadata?.reason;
const detail = (answer: Answer) => (answer.body.error as { message?: string } | undefined)?.message;

describeWith(["postgres"], "POST /v1/x402/auth", () => {
  let harness: KeysHarness;
  const tokens = new WalletTokens({ secret: randomBytes(32) });

  beforeAll(async () => {
    harness = await startKeysHarness({
      wallet: { tokens, publicBaseUrl: PUBLIC_BASE_URL },
      logger: (await import("@gw/logger")).createLogger("keys", "error"),
    });
  });

  afterAll(async () => {
    await harness?.close();
  });

  async function post(init: { header?: string; body?: string }): Promise<Answer> {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (init.header !== undefined) headers["sign-in-with-x"] = init.header;
    const response = await fetch(`${harness.running.httpUrl}/v1/x402/auth`, {
      method: "POST",
      headers,
      body: init.body ?? "",
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : {} };
  }

  async function signInEvm(
    account = privateKeyToAccount(generatePrivateKey()),
    overrides: Partial<SiwxFields> = {},
  ) {
    const message = formatSiwxMessage(fields(account.address, overrides));
    return post({ header: encode({ message, signature: await account.signMessage({ message }) }) });
  }

  async function callWith(jwt: string): Promise<Answer> {
    const response = await fetch(`${harness.running.httpUrl}${MODEL_ROUTE}`, {
      headers: { authorization: `Bearer ${jwt}` },
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  /** Row counts of everything a sign-in writes: a refused sign-in must leave them unchanged. */
  async function counts(): Promise<number[]> {
    const db = harness.database.db;
    const count = async (table: "accounts" | "api_keys" | "wallet_accounts" | "siwx_nonces") =>
      Number((await db.selectFrom(table).select(sql<string>`count(*)`.as("n")).executeTakeFirstOrThrow()).n);
    return Promise.all([
      count("accounts"),
      count("api_keys"),
      count("wallet_accounts"),
      count("siwx_nonces"),
    ]);
  }

  describe("success", () => {
    it("signs an EVM wallet in, creating its account and implicit key on the first sign-in", async () => {
      const account = privateKeyToAccount(generatePrivateKey());
      const before = await counts();
      const answer = await signInEvm(account);
      expect(answer.status).toBe(200);
      const body = answer.body as {
        jwt: string;
        tenant_id: string;
        key_id: string;
        account_id: string;
        expires_at: string;
      };
      expect(body.account_id).toBe(`eip155:8453:${account.address}`);
      expect(body.tenant_id).toMatch(/^acct_[0-9a-f]{24}$/);
      expect(body.key_id).toMatch(/^[0-9a-f]{64}$/);
      expect(Date.parse(body.expires_at) - Date.now()).toBeGreaterThan(3_500_000);
      await expect(tokens.verify(body.jwt)).resolves.toMatchObject({
        subject: body.account_id,
        tenantId: body.tenant_id,
        keyId: body.key_id,
        tokenVersion: 0,
      });
      const after = await counts();
      expect(after.map((value, index) => value - (before[index] ?? 0))).toEqual([1, 1, 1, 1]);

      const principal = await authenticateKey(harness.database.db, body.key_id);
      expect(principal.result).toMatchObject({
        $case: "principal",
        value: { accountId: body.tenant_id, walletTokenVersion: 0, disabled: false },
      });

      const again = await signInEvm(account, { chainId: "84532" });
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({
        tenant_id: body.tenant_id,
        key_id: body.key_id,
        account_id: `eip155:84532:${account.address}`,
      });
    });

    it("accepts x402's structured SIWx payload", async () => {
      const account = privateKeyToAccount(generatePrivateKey());
      const { namespace: _namespace, ...rest } = fields(account.address);
      const message = formatSiwxMessage(fields(account.address, rest));
      const payload = {
        ...rest,
        chainId: "eip155:8453",
        type: "eip191",
        signature: await account.signMessage({ message }),
      };
      const answer = await post({ header: encode(payload) });
      expect(answer.status).toBe(200);
      expect(answer.body.account_id).toBe(`eip155:8453:${account.address}`);
    });

    it("signs a Solana wallet in with a base58 header signature and a base64 body signature", async () => {
      const wallet = solanaWallet();
      const first = formatSiwxMessage(wallet.fields({ statement: undefined }));
      const viaHeader = await post({
        header: encode({ message: first, signature: base58.encode(wallet.sign(first)) }),
      });
      expect(viaHeader.status).toBe(200);
      expect(viaHeader.body.account_id).toBe(`solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp:${wallet.address}`);
      const second = formatSiwxMessage(wallet.fields());
      const viaBody = await post({
        body: JSON.stringify({ message: second, signature: base64.encode(wallet.sign(second)) }),
      });
      expect(viaBody.status).toBe(200);
      expect(viaBody.body.tenant_id).toBe(viaHeader.body.tenant_id);
    });

    it("creates one account when the same new wallet signs in ten times at once", async () => {
      const account = privateKeyToAccount(generatePrivateKey());
      const answers = await Promise.all(Array.from({ length: 10 }, () => signInEvm(account)));
      expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
      expect(new Set(answers.map((answer) => answer.body.tenant_id)).size).toBe(1);
    });

    it("lets the JWT authenticate wherever an API key does, and refuses one signed with another secret", async () => {
      const answer = await signInEvm();
      expect((await callWith(answer.body.jwt as string)).status).toBe(200);
      const forged = await new WalletTokens({ secret: randomBytes(32) }).issue({
        subject: answer.body.account_id as string,
        tenantId: answer.body.tenant_id as string,
        keyId: answer.body.key_id as string,
        tokenVersion: 0,
      });
      const refused = await callWith(forged.jwt);
      expect(refused.status).toBe(401);
      expect(reason(refused)).toBe("jwt_signature_invalid");
    });
  });

  describe("replay", () => {
    it("uses a nonce once per address, whichever replica or request comes second", async () => {
      const account = privateKeyToAccount(generatePrivateKey());
      const message = formatSiwxMessage(fields(account.address));
      const header = encode({ message, signature: await account.signMessage({ message }) });
      const answers = await Promise.all(Array.from({ length: 5 }, () => post({ header })));
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
      for (const answer of answers.filter((each) => each.status !== 200)) {
        expect(answer.status).toBe(401);
        expect(reason(answer)).toBe("invalid_siwx_nonce_reused");
      }
      const before = await counts();
      const replayed = await post({ header });
      expect(reason(replayed)).toBe("invalid_siwx_nonce_reused");
      expect(detail(replayed)).toMatch(/nonce was already used/);
      expect(await counts()).toEqual(before);
    });

    it("names a used nonce as a replay before looking at the signature", async () => {
      const account = privateKeyToAccount(generatePrivateKey());
      const text = formatSiwxMessage(fields(account.address));
      expect(
        (
          await post({
            header: encode({ message: text, signature: await account.signMessage({ message: text }) }),
          })
        ).status,
      ).toBe(200);
      const forger = privateKeyToAccount(generatePrivateKey());
      const replayed = await post({
        header: encode({ message: text, signature: await forger.signMessage({ message: text }) }),
      });
      expect(replayed.status).toBe(401);
      expect(reason(replayed)).toBe("invalid_siwx_nonce_reused");
    });

    it("lets another address use the same nonce", async () => {
      const shared = nonce();
      expect((await signInEvm(undefined, { nonce: shared })).status).toBe(200);
      expect((await signInEvm(undefined, { nonce: shared })).status).toBe(200);
    });
  });

  describe("bad input: 401 naming the reason, nothing stored", () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const other = privateKeyToAccount(generatePrivateKey());
    const signed = async (overrides: Partial<SiwxFields>, signer = account) => {
      const message = formatSiwxMessage(fields(account.address, overrides));
      return { message, signature: await signer.signMessage({ message }) };
    };
    const minutes = (count: number) => new Date(Date.now() + count * 60_000).toISOString();

    const cases: Array<[string, () => Promise<{ header?: string; body?: string }>, string]> = [
      ["malformed base64", async () => ({ header: "not*base64!" }), "invalid_siwx_header"],
      [
        "base64 of malformed JSON",
        async () => ({ header: Buffer.from("{oops").toString("base64") }),
        "invalid_siwx_header",
      ],
      ["a malformed JSON body", async () => ({ body: "{oops" }), "invalid_siwx_body"],
      ["no proof at all", async () => ({}), "missing_siwx_proof"],
      [
        "text that is no sign-in message",
        async () => ({ header: encode({ message: "hello", signature: "0x00" }) }),
        "invalid_siwx_message",
      ],
      [
        "another domain",
        async () => ({ header: encode(await signed({ domain: "evil.example" })) }),
        "invalid_siwx_domain_mismatch",
      ],
      [
        "another URI",
        async () => ({ header: encode(await signed({ uri: "https://evil.example/v1/x402/auth" })) }),
        "invalid_siwx_uri_mismatch",
      ],
      [
        "a stale Issued At",
        async () => ({ header: encode(await signed({ issuedAt: minutes(-6) })) }),
        "invalid_siwx_issued_at_too_old",
      ],
      [
        "a future Issued At",
        async () => ({ header: encode(await signed({ issuedAt: minutes(6) })) }),
        "invalid_siwx_issued_at_in_future",
      ],
      [
        "an expired message",
        async () => ({ header: encode(await signed({ expirationTime: minutes(-1) })) }),
        "invalid_siwx_expired",
      ],
      [
        "a signature by another address",
        async () => ({ header: encode(await signed({}, other)) }),
        "invalid_siwx_signature",
      ],
      [
        "a truncated signature",
        async () => {
          const proof = await signed({});
          return { header: encode({ ...proof, signature: proof.signature.slice(0, 100) }) };
        },
        "invalid_siwx_malformed_signature",
      ],
      [
        "a Solana signature in hex",
        async () => {
          const wallet = solanaWallet();
          const message = formatSiwxMessage(wallet.fields());
          return {
            header: encode({ message, signature: Buffer.from(wallet.sign(message)).toString("hex") }),
          };
        },
        "invalid_siwx_malformed_signature",
      ],
    ];

    for (const [name, build, expected] of cases) {
      it(`${name} → ${expected}`, async () => {
        const before = await counts();
        const answer = await post(await build());
        expect(answer.status).toBe(401);
        expect(answer.body.error).toMatchObject({ type: "authentication_error", code: 401 });
        expect(reason(answer)).toBe(expected);
        expect(detail(answer)).toMatch(/^wallet sign-in failed: \S/);
        expect(await counts()).toEqual(before);
      });
    }
  });

  describe("bodies the text reader refuses", () => {
    it("a body over 32 KiB is a 413 in the envelope, not a 500, and writes nothing", async () => {
      const before = await counts();
      const answer = await post({ body: JSON.stringify({ message: "é".repeat(40_000), signature: "0x00" }) });
      expect(answer.status).toBe(413);
      expect(answer.body).toMatchObject({ error: { metadata: { reason: "body_too_large" } } });
      expect(await counts()).toEqual(before);
    });

    it("a body in a charset the reader does not know is a 400, not a 500", async () => {
      const response = await fetch(`${harness.running.httpUrl}/v1/x402/auth`, {
        method: "POST",
        headers: { "content-type": "text/plain; charset=x-unknown" },
        body: "{}",
      });
      expect(response.status).toBe(400);
      // The shared body layer's code for an unknown charset, as on every other route.
      expect(await response.json()).toMatchObject({
        error: { metadata: { reason: "unsupported_encoding" } },
      });
    });
  });

  describe("revocation and disabled wallets", () => {
    it("revokes every token issued so far, announced as a key change; signing in again gives a working token", async () => {
      const account = privateKeyToAccount(generatePrivateKey());
      const first = await signInEvm(account);
      const jwt = first.body.jwt as string;
      expect((await callWith(jwt)).status).toBe(200);

      const revoked = await revokeWalletTokens(
        harness.database,
        { accountId: first.body.tenant_id as string },
        { publisher: harness.bus, keyChangesTopic: harness.topics.keyChanges },
      );
      expect(revoked).toMatchObject({ key_id: first.body.key_id, token_version: 1 });
      await eventually(() => harness.keyChanges.some((change) => change.keyHash === first.body.key_id));

      const refused = await callWith(jwt);
      expect(refused.status).toBe(401);
      expect(reason(refused)).toBe("jwt_revoked");
      const again = await signInEvm(account);
      await expect(tokens.verify(again.body.jwt as string)).resolves.toMatchObject({ tokenVersion: 1 });
      expect((await callWith(again.body.jwt as string)).status).toBe(200);
    });

    it("refuses sign-in to a wallet whose implicit key is disabled, leaving the nonce unused", async () => {
      const account = privateKeyToAccount(generatePrivateKey());
      const first = await signInEvm(account);
      await harness.database.db
        .updateTable("api_keys")
        .set({ disabled: true })
        .where("hash", "=", first.body.key_id as string)
        .execute();
      const before = await counts();
      const refused = await signInEvm(account);
      expect(refused.status).toBe(401);
      expect(reason(refused)).toBe("wallet_key_disabled");
      expect(detail(refused)).toMatch(/access is disabled/);
      expect(await counts()).toEqual(before);
      expect(reason(await callWith(first.body.jwt as string))).toBe("key_disabled");
    });
  });
});

describeWith(["postgres"], "POST /v1/x402/auth without wallet configuration", () => {
  let harness: KeysHarness;

  beforeAll(async () => {
    harness = await startKeysHarness();
  });

  afterAll(async () => {
    await harness?.close();
  });

  it("answers 503 wallet_auth_not_configured", async () => {
    const answer = await harness.request("POST", "/v1/x402/auth", { body: { message: "x", signature: "y" } });
    expect(answer.status).toBe(503);
    expect(answer.body.error).toMatchObject({ metadata: { reason: "wallet_auth_not_configured" } });
  });
});
