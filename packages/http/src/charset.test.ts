import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { requestCharset, unreadableCharset } from "./charset.js";

const withType = (type: string | undefined) =>
  ({ headers: type === undefined ? {} : { "content-type": type } }) as IncomingMessage;

describe("request charset", () => {
  it("reads the charset parameter however it is written", () => {
    expect(requestCharset(withType("application/json"))).toBeUndefined();
    expect(requestCharset(withType(undefined))).toBeUndefined();
    expect(requestCharset(withType("application/json; charset=UTF-8"))).toBe("utf-8");
    expect(requestCharset(withType('application/json;CHARSET="utf-16le"'))).toBe("utf-16le");
    expect(requestCharset(withType('application/json; a="x;charset=utf-8"; charset=utf-7'))).toBe("utf-7");
    expect(requestCharset(withType("application/json ; charset = latin1"))).toBe("latin1");
  });

  it("lets UTF-8 through and refuses any other charset with a 400 naming it (issue 33)", () => {
    expect(unreadableCharset(withType("application/json; charset=utf-8"))).toBeUndefined();
    expect(unreadableCharset(withType("application/json; charset=utf8"))).toBeUndefined();
    expect(unreadableCharset(withType("text/plain"))).toBeUndefined();
    for (const charset of ["utf-7", "utf-16le", "utf-16", "utf-32", "latin1", "x"]) {
      const refusal = unreadableCharset(withType(`application/json; charset=${charset}`));
      expect(refusal?.status, charset).toBe(400);
      expect(refusal?.code).toBe("unsupported_encoding");
      expect(refusal?.message).toContain(`"${charset}"`);
    }
  });
});
