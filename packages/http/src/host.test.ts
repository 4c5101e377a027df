import { describe, expect, it } from "vitest";
import { requestOrigin } from "./host.js";

describe("requestOrigin (issue 33: a malformed Host made new URL() throw, a 500)", () => {
  it("builds the origin of a well-formed Host", () => {
    expect(requestOrigin("http", "gateway.example.com").origin).toBe("http://gateway.example.com");
    expect(requestOrigin("https", "127.0.0.1:8080").origin).toBe("https://127.0.0.1:8080");
    expect(requestOrigin("http", "[::1]:3000").origin).toBe("http://[::1]:3000");
    expect(requestOrigin("http", undefined).origin).toBe("http://localhost");
  });

  it("refuses a malformed Host with a 400 naming the header, never a TypeError", () => {
    for (const host of [
      "a b",
      "[::1",
      "host:99999",
      "host:",
      "a/b",
      "a@b",
      "",
      "a..b",
      "%41",
      "x".repeat(400),
      "[zz]",
    ]) {
      let thrown: unknown;
      try {
        requestOrigin("http", host);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, host).toMatchObject({ status: 400, metadata: { header: "host" } });
    }
  });
});
