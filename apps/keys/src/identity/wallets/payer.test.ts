import { randomBytes } from "node:crypto";
import { WalletTokens } from "@gw/auth";
import { GatewayError } from "@gw/errors";
import { ed25519 } from "@noble/curves/ed25519";
import { base58 } from "@scure/base";
import type { Kysely } from "kysely";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import type { KeysTables } from "../../db/schema.js";
import { ensurePayerAccount, parsePayer } from "./ensure-for-payment.js";
import { signIn } from "./sign-in.js";
import { formatSiwxMessage, type SiwxFields } from "./siwx-message.js";

// The parts of a payer's and a sign-in's handling that are decided before the database is touched:
// a database that throws on any use shows that nothing was read or written.
const untouchable = new Proxy(
  {},
  {
    get() {
      throw new Error("the database was used");
    },
  },
) as unknown as Kysely<KeysTables>;

const solanaAddress = base58.encode(ed25519.getPublicKey(new Uint8Array(32).fill(3)));
const evmAddress = privateKeyToAccount(
  "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
).address;
const SOLANA_MAINNET = "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp";

describe("parsePayer (the CAIP-10 account id a verified x402 payer names)", () => {
  it("reads a Solana account id as it is", () => {
    const id = `solana:${SOLANA_MAINNET}:${solanaAddress}`;
    expect(parsePayer(id)).toEqual({ namespace: "solana", address: solanaAddress, walletAccountId: id });
  });

  it("reads an EVM account id in its checksummed spelling", () => {
    expect(parsePayer(`eip155:8453:${evmAddress.toLowerCase()}`)).toEqual({
      namespace: "eip155",
      address: evmAddress,
      walletAccountId: `eip155:8453:${evmAddress}`,
    });
  });

  it("refuses an address of the other namespace, or a Solana key that is not 32 bytes", () => {
    for (const id of [
      `eip155:8453:${solanaAddress}`,
      `solana:${SOLANA_MAINNET}:${evmAddress}`,
      `solana:${SOLANA_MAINNET}:${base58.encode(new Uint8Array(31).fill(5))}`,
      `solana::${solanaAddress}`,
      `cosmos:hub:${solanaAddress}`,
    ]) {
      expect(() => parsePayer(id), id).toThrow(/not a CAIP-10 EVM or Solana account id/);
    }
  });
});

describe("ensurePayerAccount without wallet configuration", () => {
  it("answers 503 wallet_auth_not_configured before touching the database", async () => {
    const error = await ensurePayerAccount(untouchable, undefined, `eip155:8453:${evmAddress}`).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ status: 503, code: "wallet_auth_not_configured" });
    expect((error as GatewayError).message).toMatch(/not configured/);
  });
});

describe("signIn's window", () => {
  it("checks Issued At against the configured window, not the default one", async () => {
    const now = new Date("2026-11-23T12:00:00.000Z");
    const fields: SiwxFields = {
      namespace: "eip155",
      domain: "gateway.example",
      address: evmAddress,
      uri: "https://gateway.example/v1/x402/auth",
      version: "1",
      chainId: "8453",
      nonce: "abcdef0123456789",
      // Inside the default 5 minutes, outside the configured 10 seconds.
      issuedAt: new Date(now.getTime() - 60_000).toISOString(),
    };
    const settings = {
      tokens: new WalletTokens({ secret: randomBytes(32) }),
      publicBaseUrl: new URL("https://gateway.example"),
      window: { maxAgeMs: 10_000, skewMs: 0 },
    };
    const proof = { message: formatSiwxMessage(fields), signature: "0x", fields };
    await expect(signIn(untouchable, settings, proof, now)).rejects.toMatchObject({
      metadata: { reason: "invalid_siwx_issued_at_too_old" },
    });
  });
});
