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

/** The refusal's reason; every refusal also says in words what was wrong, after the common prefix. */
function failure(run: () => unknown): SiwxFailure {
  return refusal(run).reason;
}

function refusal(run: () => unknown): { reason: SiwxFailure; message: string } {
  try {
    run();
  } catch (error) {
    return refusalOf(error);
  }
  throw new Error("accepted");
}

function refusalOf(error: unknown): { reason: SiwxFailure; message: string } {
  expect(error).toBeInstanceOf(GatewayError);
  const refused = error as GatewayError;
  expect(refused.status).toBe(401);
  expect(refused.message).toMatch(/^wallet sign-in failed: \S.*\S$/);
  return { reason: refused.metadata?.reason as SiwxFailure, message: refused.message };
}

async function asyncFailure(run: () => Promise<unknown>): Promise<SiwxFailure> {
  return (await asyncRefusal(run)).reason;
}

async function asyncRefusal(run: () => Promise<unknown>): Promise<{ reason: SiwxFailure; message: string }> {
  try {
    await run();
  } catch (error) {
    return refusalOf(error);
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
    // An empty list still writes `Resources:` in SIWE (viem, and the siwe library x402 signs with).
    for (const fields of [evmFields(), full, evmFields({ resources: [] })]) {
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
    // x402's formatSIWSMessage writes no `Resources:` line for an empty list.
    expect(formatSiwxMessage({ ...fields, resources: [] })).toBe(text);
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

describe("SIWx message text: what the parser refuses and where", () => {
  const good = formatSiwxMessage(evmFields());
  const lines = good.split("\n");
  const replaced = (index: number, line: string) =>
    lines.map((each, i) => (i === index ? line : each)).join("\n");

  it("reads a domain written with its scheme, as EIP-4361's grammar allows (`https://host wants you …`)", () => {
    expect(parseSiwxMessage(`https://${good}`).domain).toBe(BASE.host);
    expect(parseSiwxMessage(`coap+tcp://${good}`).domain).toBe(BASE.host);
  });

  it("refuses a header line with anything before the domain or after `account:`", () => {
    for (const header of [`the ${lines[0]}`, `${lines[0]} please`, `hello ${lines[0]}`])
      expect(failure(() => parseSiwxMessage(replaced(0, header ?? "")))).toBe("invalid_siwx_message");
  });

  it("refuses a text whose first line is not the header even when the lines after it are in place", () => {
    expect(failure(() => parseSiwxMessage(replaced(0, "hello")))).toBe("invalid_siwx_message");
  });

  it("refuses a text whose third line is not blank, or that stops after the address", () => {
    expect(failure(() => parseSiwxMessage(replaced(2, "junk")))).toBe("invalid_siwx_message");
    expect(failure(() => parseSiwxMessage(`${lines[0]}\n${lines[1]}\n`))).toBe("invalid_siwx_message");
    expect(failure(() => parseSiwxMessage(`${lines[0]}\n${lines[1]}`))).toBe("invalid_siwx_message");
  });

  it("names what is wrong: a statement without its blank line, a missing tag, an extra line", () => {
    const withStatement = formatSiwxMessage(evmFields({ statement: "Sign in" }));
    const noBlank = withStatement.replace("Sign in\n\n", "Sign in\n");
    expect(refusal(() => parseSiwxMessage(noBlank)).message).toContain("(the statement)");
    expect(refusal(() => parseSiwxMessage(good.replace(/\nNonce: .*/, ""))).message).toContain(
      "(the Nonce line)",
    );
    const extra = `${good}\nColour: blue`;
    expect(refusal(() => parseSiwxMessage(extra)).message).toContain(`(line ${lines.length + 1})`);
  });

  it("takes only `- ` lines as resources: another line after them is refused", () => {
    const text = formatSiwxMessage(evmFields({ resources: ["https://gateway.example:8443/a"] }));
    expect(parseSiwxMessage(text).resources).toEqual(["https://gateway.example:8443/a"]);
    expect(failure(() => parseSiwxMessage(`${text}\nhttps://evil.example`))).toBe("invalid_siwx_message");
  });
});

describe("readProof: the header's encodings and the payload's shape", () => {
  // Runs of `~` and `?` put `+` and `/` in standard base64 wherever they fall; the filler varies the
  // length, so the header ends with no, one and two `=`.
  const proofWith = (filler: string) => ({
    message: formatSiwxMessage(evmFields()),
    signature: `0x~~~~~~~~~???????${filler}`,
  });
  const fillers = ["", "a", "ab"];

  it("reads standard base64 with `+` and `/`, padded or not", () => {
    for (const filler of fillers) {
      const standard = Buffer.from(JSON.stringify(proofWith(filler))).toString("base64");
      expect(standard).toMatch(/[+/]/);
      for (const value of [standard, standard.replace(/=+$/, "")])
        expect(readProof(value, "").signature, value).toBe(proofWith(filler).signature);
    }
    expect(
      new Set(
        fillers.map(
          (f) =>
            Buffer.from(JSON.stringify(proofWith(f)))
              .toString("base64")
              .match(/=*$/)?.[0],
        ),
      ),
    ).toEqual(new Set(["", "=", "=="]));
  });

  it("reads base64url with `-` and `_`, padded or not", () => {
    for (const filler of fillers) {
      const url = Buffer.from(JSON.stringify(proofWith(filler))).toString("base64url");
      expect(url).toMatch(/[-_]/);
      const padded = url.padEnd(Math.ceil(url.length / 4) * 4, "=");
      for (const value of [url, padded])
        expect(readProof(value, "").signature, value).toBe(proofWith(filler).signature);
    }
  });

  it("ignores whitespace around the header and refuses characters of neither alphabet anywhere in it", () => {
    const standard = header(proofWith(""));
    expect(readProof(`  ${standard}\t`, "").signature).toBe(proofWith("").signature);
    const url = Buffer.from(JSON.stringify(proofWith(""))).toString("base64url");
    for (const value of [
      `!!${standard}`,
      `${standard}!!`,
      `${standard.slice(0, 8)}*${standard.slice(8)}`,
      `!!${url}`,
      `${url}!!`,
    ])
      expect(
        failure(() => readProof(value, "")),
        value,
      ).toBe("invalid_siwx_header");
  });

  it("refuses JSON that is not an object, in the header and in the body", () => {
    for (const value of [42, null, "text", true]) {
      expect(failure(() => readProof(header(value), ""))).toBe("invalid_siwx_header");
      expect(failure(() => readProof(undefined, JSON.stringify(value)))).toBe("invalid_siwx_body");
    }
  });

  it("takes a blank body for no proof, and says a malformed body is not JSON", () => {
    expect(failure(() => readProof(undefined, " \n\t "))).toBe("missing_siwx_proof");
    expect(refusal(() => readProof(undefined, "{not json")).message).toMatch(/the body is not JSON$/);
    expect(refusal(() => readProof(Buffer.from("{not json").toString("base64"), "")).message).toMatch(
      /not base64 of JSON$/,
    );
    expect(refusal(() => readProof("%%%", "")).message).toMatch(/is not base64$/);
  });

  const structured = (overrides: Record<string, unknown> = {}) => ({
    ...evmFields(),
    namespace: undefined,
    chainId: "eip155:8453",
    signature: "0x1",
    ...overrides,
  });

  it("accepts a structured payload without `type`, and a Solana one typed ed25519", () => {
    expect(readProof(header(structured()), "").fields.namespace).toBe("eip155");
    const solana = readProof(
      header(
        structured({
          address: solanaAddress,
          chainId: "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp",
          type: "ed25519",
        }),
      ),
      "",
    );
    expect(solana.fields).toMatchObject({ namespace: "solana", chainId: "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp" });
    expect(solana.message).toContain("with your Solana account:");
  });

  it("refuses a chainId that is not exactly `eip155:<ref>` or `solana:<ref>`", () => {
    for (const chainId of ["xeip155:8453", "eip155:8453:extra", "eip155:8453!", "eip155:", "bitcoin:1"])
      expect(
        failure(() => readProof(header(structured({ chainId })), "")),
        chainId,
      ).toBe("invalid_siwx_payload");
  });

  it("signs for the resources the payload lists, up to 64 of them", () => {
    const resources = ["https://gateway.example:8443/a"];
    expect(readProof(header(structured({ resources })), "").message).toMatch(
      /\nResources:\n- https:\/\/gateway\.example:8443\/a$/,
    );
    const many = Array.from({ length: 65 }, (_, i) => `https://gateway.example:8443/${i}`);
    expect(failure(() => readProof(header(structured({ resources: many })), ""))).toBe(
      "invalid_siwx_payload",
    );
  });

  it("names the payload's first invalid field by its path", () => {
    const { nonce: _nonce, ...withoutNonce } = structured();
    expect(refusal(() => readProof(header(withoutNonce), "")).message).toContain("(nonce: ");
    expect(refusal(() => readProof(header(structured({ resources: ["ok", 42] })), "")).message).toContain(
      "(resources.1: ",
    );
  });
});

describe("checkFields: edges of the window and of each field's grammar", () => {
  const at = (offsetMs: number) => new Date(NOW.getTime() + offsetMs).toISOString();
  const accepted = (overrides: Partial<SiwxFields>) => checkFields(evmFields(overrides), BASE, NOW);
  const check = (overrides: Partial<SiwxFields>) => () => checkFields(evmFields(overrides), BASE, NOW);

  it("accepts Issued At exactly 5 minutes old and exactly the tolerated skew ahead", () => {
    expect(accepted({ issuedAt: at(-5 * 60_000) }).nonce).toBe("abcdef0123456789");
    expect(accepted({ issuedAt: at(30_000) }).nonce).toBe("abcdef0123456789");
    expect(failure(check({ issuedAt: at(30_001) }))).toBe("invalid_siwx_issued_at_in_future");
  });

  it("accepts RFC 3339 times without fractional seconds and with a numeric offset", () => {
    for (const issuedAt of [
      "2026-11-23T12:00:00Z",
      "2026-11-23T13:00:00+01:00",
      "2026-11-23T06:30:00.5-05:30",
    ])
      expect(accepted({ issuedAt }).nonce, issuedAt).toBe("abcdef0123456789");
  });

  it("refuses times RFC 3339 does not write, even where Date.parse reads them", () => {
    for (const issuedAt of ["+002026-11-23T12:00:00Z", "2026-11-23T12:00:00+0100", "2026-11-23 12:00:00Z"])
      expect(failure(check({ issuedAt })), issuedAt).toBe("invalid_siwx_issued_at");
  });

  it("accepts an Expiration Time ahead and a Not Before behind or within the skew; names malformed ones", () => {
    expect(accepted({ expirationTime: at(1_000) }).nonce).toBe("abcdef0123456789");
    expect(accepted({ notBefore: at(-60_000) }).nonce).toBe("abcdef0123456789");
    expect(accepted({ notBefore: at(30_000) }).nonce).toBe("abcdef0123456789");
    const badExpiry = refusal(check({ expirationTime: "soon" }));
    expect(badExpiry.reason).toBe("invalid_siwx_message");
    expect(badExpiry.message).toContain("Expiration Time");
    const badNotBefore = refusal(check({ notBefore: "later" }));
    expect(badNotBefore.reason).toBe("invalid_siwx_message");
    expect(badNotBefore.message).toContain("Not Before");
    expect(refusal(check({ issuedAt: "now" })).message).toContain("Issued At");
  });

  it("refuses a nonce with anything but letters and digits, wherever it is", () => {
    for (const nonce of ["!!abcdef0123", "abcdef0123!!", "abcd-ef0123", "a".repeat(129)])
      expect(failure(check({ nonce })), nonce).toBe("invalid_siwx_nonce");
    expect(accepted({ nonce: "a".repeat(128) }).nonce).toHaveLength(128);
  });

  it("refuses an EVM chain id that is not a plain decimal number", () => {
    for (const chainId of ["08453", "8453x", "x8453", "0", "84 53"])
      expect(failure(check({ chainId })), chainId).toBe("invalid_siwx_chain_id");
  });

  const solana = (overrides: Partial<SiwxFields>) =>
    evmFields({ namespace: "solana", address: solanaAddress, chainId: "mainnet", ...overrides });

  it("maps each Solana cluster name to its genesis hash and keeps a reference as it is", () => {
    const references: Record<string, string> = {
      mainnet: "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp",
      "mainnet-beta": "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp",
      devnet: "EtWTRABZaYq6iMfeYKouRu166VU2xqa1",
      testnet: "4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z",
      EtWTRABZaYq6iMfeYKouRu166VU2xqa1: "EtWTRABZaYq6iMfeYKouRu166VU2xqa1",
    };
    for (const [chainId, reference] of Object.entries(references))
      expect(checkFields(solana({ chainId }), BASE, NOW).chainReference, chainId).toBe(reference);
  });

  it("refuses a Solana chain id that is no CAIP-2 reference", () => {
    for (const chainId of ["bad!ref", "!abc", "abc!", "a".repeat(33), ""])
      expect(
        failure(() => checkFields(solana({ chainId }), BASE, NOW)),
        chainId,
      ).toBe("invalid_siwx_chain_id");
  });

  it("refuses a Solana address that is not base58 of a 32-byte public key", () => {
    for (const address of [
      "0OIl-not-base58",
      base58.encode(new Uint8Array(31).fill(9)),
      base58.encode(new Uint8Array(33).fill(9)),
    ])
      expect(
        failure(() => checkFields(solana({ address }), BASE, NOW)),
        address,
      ).toBe("invalid_siwx_address");
  });
});

describe("verifySignature: malformed and impossible signatures", () => {
  const message = formatSiwxMessage(evmFields());
  const evmClaim = (): SignInClaim => checkFields(evmFields(), BASE, NOW);

  it("names an EVM signature with anything before or after its 65 bytes as malformed", async () => {
    const signature = await evm.signMessage({ message });
    for (const bad of [`ab${signature}`, `${signature}00`, signature.slice(2)])
      expect(await asyncFailure(() => verifySignature(evmClaim(), message, bad)), bad).toBe(
        "invalid_siwx_malformed_signature",
      );
  });

  it("refuses a well-formed EVM signature that is no point on the curve", async () => {
    expect(await asyncFailure(() => verifySignature(evmClaim(), message, `0x${"00".repeat(65)}`))).toBe(
      "invalid_siwx_signature",
    );
  });

  it("refuses a Solana signature for an address that is no public key", async () => {
    const claim: SignInClaim = {
      ...checkFields(
        { ...evmFields(), namespace: "solana", address: solanaAddress, chainId: "mainnet" },
        BASE,
        NOW,
      ),
      address: "0OIl",
    };
    const signature = base58.encode(ed25519.sign(new TextEncoder().encode(message), solanaSecret));
    expect(await asyncFailure(() => verifySignature(claim, message, signature))).toBe(
      "invalid_siwx_signature",
    );
  });
});
