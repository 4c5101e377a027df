import { describe, expect, it } from "vitest";
import { chooseCoding, parseAcceptEncoding } from "./precompressed.js";

describe("console: choosing the content coding from Accept-Encoding", () => {
  const both = ["br", "gzip"] as const;

  it("prefers br, then gzip, then identity when the q-values are equal", () => {
    expect(chooseCoding("gzip, deflate, br", both)).toBe("br");
    expect(chooseCoding("gzip, br", both)).toBe("br");
    expect(chooseCoding("*", both)).toBe("br");
    expect(chooseCoding("gzip, deflate", both)).toBe("gzip");
    expect(chooseCoding("br, gzip", ["gzip"])).toBe("gzip");
  });

  it("sends identity with no header, an empty one, or no acceptable sibling", () => {
    expect(chooseCoding(undefined, both)).toBeUndefined();
    expect(chooseCoding("", both)).toBeUndefined();
    expect(chooseCoding("identity", both)).toBeUndefined();
    expect(chooseCoding("deflate, zstd", both)).toBeUndefined();
    expect(chooseCoding("br", ["gzip"])).toBeUndefined();
    expect(chooseCoding("br, gzip", [])).toBeUndefined();
  });

  it("follows q-values, q=0 refusing a coding", () => {
    expect(chooseCoding("br;q=0, gzip", both)).toBe("gzip");
    expect(chooseCoding("br;q=0.5, gzip;q=0.6", both)).toBe("gzip");
    expect(chooseCoding("br;q=0.2, gzip;q=0.8", both)).toBe("gzip");
    expect(chooseCoding("br;q=0, gzip;q=0", both)).toBeUndefined();
    expect(chooseCoding("*;q=0", both)).toBeUndefined();
    expect(chooseCoding("*;q=0.3, br;q=0", both)).toBe("gzip");
    expect(chooseCoding("*;q=0, identity", both)).toBeUndefined();
  });

  it("lets a named identity with a higher q-value win over the codings", () => {
    expect(chooseCoding("gzip;q=0.5, identity", both)).toBeUndefined();
    expect(chooseCoding("br;q=0.5, identity;q=0.5", both)).toBe("br");
    expect(chooseCoding("identity;q=0, gzip;q=0.1", both)).toBe("gzip");
  });

  it("reads codings case-insensitively, x-gzip as gzip, with spaces around the parameters", () => {
    expect(chooseCoding("GZIP", both)).toBe("gzip");
    expect(chooseCoding("x-gzip", ["gzip"])).toBe("gzip");
    expect(chooseCoding(" br ; q = 0 , gzip ; Q=0.9", both)).toBe("gzip");
  });

  it("leaves out malformed entries and q-values outside the grammar", () => {
    expect(parseAcceptEncoding("br;q=2, gzip;q=0.1234, deflate;q=abc, zstd;q=1.000, identity;q=0.")).toEqual(
      new Map([
        ["zstd", 1],
        ["identity", 0],
      ]),
    );
    expect(parseAcceptEncoding("br;q=0, br;q=1, ,;q=1, b r")).toEqual(new Map([["br", 0]]));
    // A refusal written badly is no acceptance either.
    expect(chooseCoding("br;q=-1", both)).toBeUndefined();
  });
});
