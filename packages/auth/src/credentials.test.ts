import { GatewayError, MISSING_AUTH_MESSAGE } from "@gw/errors";
import { describe, expect, it } from "vitest";
import {
  extractSecret,
  hashSecret,
  KEY_PREFIXES,
  looksLikeServiceKey,
  requireSecret,
} from "./credentials.js";

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

  it("accepts any case of Bearer, several spaces and trailing whitespace around the token", () => {
    expect(extractSecret({ headers: { authorization: `bearer   ${KEY}` } })).toBe(KEY);
    expect(extractSecret({ headers: { authorization: `Bearer ${KEY} \t` } })).toBe(KEY);
  });

  it("trims an X-Api-Key and takes the first of repeated headers", () => {
    expect(extractSecret({ headers: { "x-api-key": `  ${KEY} ` } })).toBe(KEY);
    expect(extractSecret({ headers: { "x-api-key": [KEY, "second"] } })).toBe(KEY);
  });

  it("ignores an empty or non-string key query parameter", () => {
    expect(extractSecret({ headers: {}, query: { key: "" } })).toBeUndefined();
    expect(extractSecret({ headers: {}, query: { key: [KEY] } })).toBeUndefined();
    expect(extractSecret({ headers: {} })).toBeUndefined();
  });

  it("rejects a malformed Authorization header with the spec's message", () => {
    const malformed = [
      "Basic abc",
      "Bearer",
      "Bearer    ",
      "token abc",
      `NotBearer ${KEY}`,
      `Bearer ${KEY} extra`,
    ];
    for (const value of malformed) {
      try {
        extractSecret({ headers: { authorization: value } });
        expect.unreachable(`accepted ${value}`);
      } catch (error) {
        expect(error).toBeInstanceOf(GatewayError);
        expect((error as GatewayError).status).toBe(401);
        expect((error as GatewayError).message).toBe(MISSING_AUTH_MESSAGE);
        expect((error as GatewayError).code).toBe("missing_credentials");
      }
    }
  });

  it("requireSecret answers 401 missing_credentials when nothing is sent", () => {
    expect(() => requireSecret({ headers: {} })).toThrow(MISSING_AUTH_MESSAGE);
    expect(() => requireSecret({ headers: {} })).toThrow(
      expect.objectContaining({ status: 401, code: "missing_credentials" }),
    );
  });

  it("requireSecret returns the secret that was sent", () => {
    expect(requireSecret({ headers: { "x-goog-api-key": KEY } })).toBe(KEY);
  });
});

describe("key format and hashing", () => {
  it("recognises service keys by shape only", () => {
    expect(looksLikeServiceKey(KEY)).toBe(true);
    expect(looksLikeServiceKey(`lr_mgmt_${"0".repeat(48)}`)).toBe(true);
    expect(looksLikeServiceKey(`lr_live_${"A".repeat(48)}`)).toBe(false);
    expect(looksLikeServiceKey("sk-123")).toBe(false);
    expect(looksLikeServiceKey(`x${KEY}`)).toBe(false);
    expect(looksLikeServiceKey(`${KEY}0`)).toBe(false);
  });

  it("issues keys with the prefixes it recognises, one per kind", () => {
    const hex = "0".repeat(48);
    expect(looksLikeServiceKey(`${KEY_PREFIXES.management}${hex}`)).toBe(true);
    expect(looksLikeServiceKey(`${KEY_PREFIXES.regular}${hex}`)).toBe(true);
    expect(KEY_PREFIXES.management).not.toBe(KEY_PREFIXES.regular);
  });

  it("hashes with sha256 hex", () => {
    expect(hashSecret("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });
});
