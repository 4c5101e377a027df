import { describe, expect, it } from "vitest";
import { newNonce, parseChainId, siweMessage, toHexUtf8, walletErrorMessage } from "./wallet";

describe("the SIWE message", () => {
  it("is laid out as EIP-4361 writes it, with the page's host and origin", () => {
    const message = siweMessage({
      domain: "gateway.example.com:8080",
      uri: "https://gateway.example.com:8080",
      address: "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
      chainId: 8453,
      nonce: "0123456789abcdef0123456789abcdef",
      issuedAt: new Date("2026-11-23T19:00:00.000Z"),
    });
    expect(message).toBe(
      [
        "gateway.example.com:8080 wants you to sign in with your Ethereum account:",
        "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
        "",
        "Sign in to the Model Gateway console.",
        "",
        "URI: https://gateway.example.com:8080",
        "Version: 1",
        "Chain ID: 8453",
        "Nonce: 0123456789abcdef0123456789abcdef",
        "Issued At: 2026-11-23T19:00:00.000Z",
      ].join("\n"),
    );
  });

  it("uses a fresh 32-hex-digit nonce each time (the server wants 8-128 alphanumerics, once)", () => {
    const a = newNonce();
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(newNonce()).not.toBe(a);
  });

  it("reads the wallet's chain id", () => {
    expect(parseChainId("0x2105")).toBe(8453);
    expect(parseChainId("1")).toBe(1);
    expect(() => parseChainId(undefined)).toThrow(/chain/);
  });

  it("hex-encodes the text for personal_sign as UTF-8", () => {
    expect(toHexUtf8("hi…")).toBe("0x6869e280a6");
  });

  it("explains a declined request", () => {
    expect(walletErrorMessage({ code: 4001, message: "User rejected" })).toBe(
      "The request was declined in the wallet.",
    );
    expect(walletErrorMessage(new Error("locked"))).toBe("The wallet failed: locked");
  });
});
