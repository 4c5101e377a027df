import { describe, expect, it } from "vitest";
import { decodePageToken, encodePageToken } from "./page-token.js";

describe("page tokens", () => {
  it("round-trips the next offset", () => {
    expect(decodePageToken(encodePageToken(0))).toBe(0);
    expect(decodePageToken(encodePageToken(1234))).toBe(1234);
  });

  it("rejects tokens it did not issue with a 400 naming page_token", () => {
    expect(() => decodePageToken("garbage")).toThrow(/^page_token:/);
    expect(() => decodePageToken(Buffer.from("o:-5").toString("base64url"))).toThrow(/^page_token:/);
  });
});
