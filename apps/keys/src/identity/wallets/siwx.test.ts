import { GatewayError } from "@gw/errors";
import { ed25519 } from "@noble/curves/ed25519";
import { base58, base64 } from "@scure/base";
import { privateKeyToAccount } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";
import { describe, expect, it } from "vitest";
import { checkFields, type SignInClaim } from "./checks.js";
import type { SiwxFailure } from "./failures.js";
import { readProof } from "./proof.js";
import { solanaSignatureBytes, verifySignature } from "./signature.js";
import { formatSiwxMessage, parseSiwxMessage, type SiwxFields } from "./siwx-message.js";

// Hardhat's well-known development key #0: a fixed EOA, so failures are reproducible.
const evm = privateKeyToAccount("0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80");
const solanaSecret = new Uint8Array(32).fill(7);
const solanaAddress = base58.encode(ed25519.getPublicKey(solanaSecret));
const BASE = new URL("https://gateway.example:8443");
const NOW = new Date("2026-11-23T12:00:00.000Z");

function evmFields(overrides: Partial<SiwxFields> = {}): SiwxFields {
  return {
    namespace: "eip155",
    domain: BASE.host,
    address: evm.address,
    uri: `${BASE.origin}/v1/x402/auth`,
    version: "1",
    chainId: "8453",
    nonce: "abcdef0123456789",
    issuedAt: NOW.toISOString(),
    ...overrides,
  };
}

function failure(run: () => unknown): SiwxFailure {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).status).toBe(401);
    return (error as GatewayError).metadata?.reason as SiwxFailure;
  }
  throw new Error("accepted");
}

async function asyncFailure(run: () => Promise<unknown>): Promise<SiwxFailure> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayError);
    return (error as GatewayError).metadata?.reason as SiwxFailure;
  }
  throw new Error("accepted");
}

const header = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64");

describe("SIWx message text", () => {
  it("formats EVM messages byte-identically to viem's createSiweMessage, with and without the optional parts", () => {
    const full = evmFields({
      statement: "Sign in to the gateway",
      expirationTime: "2026-11-23T12:05:00.000Z",
      notBefore: "2026-11-23T11:59:00.000Z",
      requestId: "req-1",
      resources: ["https://gateway.example:8443/a", "https://gateway.example:8443/b"],
    });
    for (const fields of [evmFields(), full]) {
      const viemText = createSiweMessage({
        domain: fields.domain,
        address: evm.address,
        uri: fields.uri,
        version: "1",
        chainId: Number(fields.chainId),
        nonce: fields.nonce,
        issuedAt: new Date(fields.issuedAt),
        ...(fields.statement ? { statement: fields.statement } : {}),
        ...(fields.expirationTime ? { expirationTime: new Date(fields.expirationTime) } : {}),
        ...(fields.notBefore ? { notBefore: new Date(fields.notBefore) } : {}),
        ...(fields.requestId ? { requestId: fields.requestId } : {}),
        ...(fields.resources ? { resources: fields.resources } : {}),
      });
      expect(formatSiwxMessage(fields)).toBe(viemText);
      expect(parseSiwxMessage(viemText)).toEqual({ ...fields, statement: fields.statement });
    }
  });

  it("parses SIWS text with one blank line and no statement (x402's and the wallet standard's layout)", () => {
    const text = [
      `${BASE.host} wants you to sign in with your Solana account:`,
      solanaAddress,
      "",
      `URI: ${BASE.origin}/v1/x402/auth`,
      "Version: 1",
      "Chain ID: 5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp",
      "Nonce: 0123456789abcdef",
      `Issued At: ${NOW.toISOString()}`,
    ].join("\n");
    const fields = parseSiwxMessage(text);
    expect(fields).toMatchObject({
      namespace: "solana",
      address: solanaAddress,
      chainId: "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp",
    });
    expect(formatSiwxMessage(fields)).toBe(text);
  });

  it("refuses text that is not a sign-in message, or has fields out of order or unknown lines", () => {
    const good = formatSiwxMessage(evmFields());
    const variants = [
      "hello",
      good.replace("Version: 1\nChain ID: 8453", "Chain ID: 8453\nVersion: 1"),
      `${good}\nColour: blue`,
      good.replace(/\nNonce: .*/, ""),
    ];
    for (const text of variants) expect(failure(() => parseSiwxMessage(text))).toBe("invalid_siwx_message");
  });
});

describe("readProof", () => {
  const message = formatSiwxMessage(evmFields());

  it("reads the {message, signature} header, the structured x402 payload and a JSON body", () => {
    expect(readProof(header({ message, signature: "0x1" }), "").message).toBe(message);
    const structured = readProof(
      header({
        ...evmFields(),
        namespace: undefined,
        chainId: "eip155:8453",
        type: "eip191",
        signature: "0x1",
      }),
      "",
    );
    expect(structured.message).toBe(message);
    expect(structured.fields.chainId).toBe("8453");
    expect(readProof(undefined, JSON.stringify({ message, signature: "0x1", type: "siwx" })).message).toBe(
      message,
    );
  });

  it("names malformed base64, malformed JSON, a missing proof and a bad payload", () => {
    expect(failure(() => readProof("%%%not-base64%%%", ""))).toBe("invalid_siwx_header");
    expect(failure(() => readProof(Buffer.from("{not json").toString("base64"), ""))).toBe(
      "invalid_siwx_header",
    );
    expect(failure(() => readProof(header([1, 2]), ""))).toBe("invalid_siwx_header");
    expect(failure(() => readProof(undefined, "{not json"))).toBe("invalid_siwx_body");
    expect(failure(() => readProof(undefined, ""))).toBe("missing_siwx_proof");
    expect(failure(() => readProof(header({ message: 42, signature: "x" }), ""))).toBe(
      "invalid_siwx_payload",
    );
    expect(failure(() => readProof(header({ domain: "x" }), ""))).toBe("invalid_siwx_payload");
    const mismatched = { ...evmFields(), chainId: "eip155:8453", type: "ed25519", signature: "0x1" };
    expect(failure(() => readProof(header(mismatched), ""))).toBe("invalid_siwx_payload");
    const injected = {
      ...evmFields(),
      statement: "hi\nURI: https://evil.example",
      chainId: "eip155:8453",
      signature: "0x1",
    };
    expect(failure(() => readProof(header(injected), ""))).toBe("invalid_siwx_payload");
  });
});

describe("checkFields", () => {
  const check = (overrides: Partial<SiwxFields>) => () => checkFields(evmFields(overrides), BASE, NOW);

  it("accepts a fresh message for this gateway and names the CAIP-10 account", () => {
    const claim = checkFields(evmFields({ address: evm.address.toLowerCase() }), BASE, NOW);
    expect(claim.address).toBe(evm.address);
    expect(claim.accountId).toBe(`eip155:8453:${evm.address}`);
    expect(claim.nonceExpiresAt.getTime()).toBe(NOW.getTime() + 5 * 60_000 + 30_000);
  });

  it("names each field that is wrong", () => {
    const cases: Array<[Partial<SiwxFields>, SiwxFailure]> = [
      [{ domain: "evil.example" }, "invalid_siwx_domain_mismatch"],
      [{ domain: "gateway.example" }, "invalid_siwx_domain_mismatch"],
      [{ uri: "https://evil.example/v1/x402/auth" }, "invalid_siwx_uri_mismatch"],
      [{ uri: "http://gateway.example:8443/v1/x402/auth" }, "invalid_siwx_uri_mismatch"],
      [{ uri: "not a url" }, "invalid_siwx_uri_mismatch"],
      [{ version: "2" }, "invalid_siwx_version"],
      [{ chainId: "base" }, "invalid_siwx_chain_id"],
      [{ address: "0x1234" }, "invalid_siwx_address"],
      [{ address: evm.address.replace("f39F", "F39f") }, "invalid_siwx_address"],
      [{ nonce: "short" }, "invalid_siwx_nonce"],
      [{ issuedAt: "yesterday" }, "invalid_siwx_issued_at"],
      [
        { issuedAt: new Date(NOW.getTime() - 5 * 60_000 - 1).toISOString() },
        "invalid_siwx_issued_at_too_old",
      ],
      [{ issuedAt: new Date(NOW.getTime() + 10 * 60_000).toISOString() }, "invalid_siwx_issued_at_in_future"],
      [{ expirationTime: NOW.toISOString() }, "invalid_siwx_expired"],
      [{ notBefore: new Date(NOW.getTime() + 60_000).toISOString() }, "invalid_siwx_not_yet_valid"],
    ];
    for (const [overrides, reason] of cases)
      expect(failure(check(overrides)), JSON.stringify(overrides)).toBe(reason);
  });

  it("maps a Solana cluster name to its genesis-hash reference", () => {
    const claim = checkFields(
      { ...evmFields(), namespace: "solana", address: solanaAddress, chainId: "devnet" },
      BASE,
      NOW,
    );
    expect(claim.accountId).toBe(`solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1:${solanaAddress}`);
  });
});

describe("verifySignature", () => {
  const evmClaim = (): SignInClaim => checkFields(evmFields(), BASE, NOW);
  const solanaFields = (): SiwxFields => ({
    ...evmFields(),
    namespace: "solana",
    address: solanaAddress,
    chainId: "mainnet",
  });

  it("accepts the address's own EIP-191 signature and refuses another address's", async () => {
    const message = formatSiwxMessage(evmFields());
    await verifySignature(evmClaim(), message, await evm.signMessage({ message }));
    const other = privateKeyToAccount("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d");
    expect(
      await asyncFailure(async () =>
        verifySignature(evmClaim(), message, await other.signMessage({ message })),
      ),
    ).toBe("invalid_siwx_signature");
  });

  it("names a truncated or non-hex EVM signature as malformed", async () => {
    const message = formatSiwxMessage(evmFields());
    const signature = await evm.signMessage({ message });
    expect(await asyncFailure(() => verifySignature(evmClaim(), message, signature.slice(0, -2)))).toBe(
      "invalid_siwx_malformed_signature",
    );
    expect(await asyncFailure(() => verifySignature(evmClaim(), message, "zz"))).toBe(
      "invalid_siwx_malformed_signature",
    );
  });

  it("accepts a Solana signature in base58 and in base64, and refuses it in hex", async () => {
    const fields = solanaFields();
    const claim = checkFields(fields, BASE, NOW);
    const message = formatSiwxMessage(fields);
    const signature = ed25519.sign(new TextEncoder().encode(message), solanaSecret);
    await verifySignature(claim, message, base58.encode(signature));
    await verifySignature(claim, message, base64.encode(signature));
    expect(
      await asyncFailure(() => verifySignature(claim, message, Buffer.from(signature).toString("hex"))),
    ).toBe("invalid_siwx_malformed_signature");
  });

  it("refuses a Solana signature over other text", async () => {
    const fields = solanaFields();
    const claim = checkFields(fields, BASE, NOW);
    const signature = ed25519.sign(new TextEncoder().encode("something else"), solanaSecret);
    expect(
      await asyncFailure(() => verifySignature(claim, formatSiwxMessage(fields), base58.encode(signature))),
    ).toBe("invalid_siwx_signature");
  });

  it("decodes only 64-byte signatures", () => {
    expect(solanaSignatureBytes(base58.encode(new Uint8Array(64).fill(1)))).toHaveLength(1);
    expect(solanaSignatureBytes(base58.encode(new Uint8Array(63).fill(1)))).toHaveLength(0);
  });
});
