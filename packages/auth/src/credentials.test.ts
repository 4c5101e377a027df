import { GatewayError, MISSING_AUTH_MESSAGE } from "@gw/errors";
import { describe, expect, it } from "vitest";
import { extractSecret, hashSecret, looksLikeServiceKey, requireSecret } from "./credentials.js";

const KEY = `lr_live_${"ab".repeat(24)}`;

describe("extractSecret", () => {
  it("detects each method", () => {
    expect(extractSecret({ headers: { authorization: `Bearer ${KEY}` } })).toBe(KEY);
    expect(extractSecret({ headers: { "x-api-key": KEY } })).toBe(KEY);
    expect(extractSecret({ headers: { "x-goog-api-key": KEY } })).toBe(KEY);
    expect(extractSecret({ headers: {}, query: { key: KEY } })).toBe(KEY);
  });

  it("prefers the Authorization header over the others", () => {
    expect(
      extractSecret({
        headers: { authorization: "Bearer first", "x-api-key": "second" },
        query: { key: "third" },
      }),
    ).toBe("first");
  });

  it("rejects a malformed Authorization header with the spec's message", () => {
    for (const value of ["Basic abc", "Bearer", "Bearer    ", "token abc"]) {
      try {
        extractSecret({ headers: { authorization: value } });
        expect.unreachable(`accepted ${value}`);
      } catch (error) {
        expect(error).toBeInstanceOf(GatewayError);
        expect((error as GatewayError).status).toBe(401);
        expect((error as GatewayError).message).toBe(MISSING_AUTH_MESSAGE);
      }
    }
  });

  it("requireSecret answers 401 when nothing is sent", () => {
    expect(() => requireSecret({ headers: {} })).toThrow(MISSING_AUTH_MESSAGE);
  });
});

describe("key format and hashing", () => {
  it("recognises service keys by shape only", () => {
    expect(looksLikeServiceKey(KEY)).toBe(true);
    expect(looksLikeServiceKey(`lr_mgmt_${"0".repeat(48)}`)).toBe(true);
    expect(looksLikeServiceKey(`lr_live_${"A".repeat(48)}`)).toBe(false);
    expect(looksLikeServiceKey("sk-123")).toBe(false);
  });

  it("hashes with sha256 hex", () => {
    expect(hashSecret("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });
});
