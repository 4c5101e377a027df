import { describe, expect, it } from "vitest";
import { arrayLiteral } from "./array-literal.js";

describe("arrayLiteral", () => {
  it("leaves numbers, bigints and booleans unquoted and writes null and undefined as NULL", () => {
    expect(arrayLiteral([1, -20, 3.5, 12345678901234567890n, true, false, null, undefined])).toBe(
      "{1,-20,3.5,12345678901234567890,t,f,NULL,NULL}",
    );
  });

  it("quotes every string, so an empty one, NULL, braces, commas and spaces stay text", () => {
    expect(arrayLiteral(["", "NULL", "a,b", "{x}", " padded "])).toBe('{"","NULL","a,b","{x}"," padded "}');
  });

  it("escapes quotes and backslashes, each with a backslash", () => {
    expect(arrayLiteral(['say "hi"', "C:\\dir\\", '\\"'])).toBe('{"say \\"hi\\"","C:\\\\dir\\\\","\\\\\\""}');
  });

  it("writes a Date as its ISO instant and an object as its JSON, quoted", () => {
    expect(arrayLiteral([new Date(Date.UTC(2026, 10, 28, 14, 5, 6, 7)), { a: "b" }])).toBe(
      '{"2026-11-28T14:05:06.007Z","{\\"a\\":\\"b\\"}"}',
    );
  });

  it("quotes non-finite numbers (as text PostgreSQL reads for numeric and float columns)", () => {
    expect(arrayLiteral([Number.NaN, Number.POSITIVE_INFINITY])).toBe('{"NaN","Infinity"}');
  });

  it("is {} for no elements and refuses binary elements", () => {
    expect(arrayLiteral([])).toBe("{}");
    expect(() => arrayLiteral([Buffer.from("x")])).toThrow(/binary/);
  });
});
