import { describe, expect, it } from "vitest";
import { unstorableTextPath } from "./json-depth.js";

describe("unstorableTextPath", () => {
  it("names the first unstorable string or key in document order", () => {
    expect(unstorableTextPath({ a: "ok", b: ["x", "y\u0000"], c: "\u0000" })).toBe("b[1]");
    expect(unstorableTextPath({ a: { "k\u0000": "v" }, b: "\u0000" })).toBe("a.k\u0000");
    expect(unstorableTextPath({ a: { first: "\ud800", second: "\u0000" } })).toBe("a.first");
    expect(unstorableTextPath("\u0000")).toBe("body");
    expect(unstorableTextPath({ a: [1, true, null, { b: "fine" }] })).toBeUndefined();
  });

  it("walks a value nested 100,000 deep without recursion (issue 33: the recursive walk overflowed the stack)", () => {
    let deep: unknown = "\u0000";
    for (let level = 0; level < 100_000; level++) deep = [deep];
    expect(unstorableTextPath({ deep })).toBe(`deep${"[0]".repeat(100_000)}`);
    let clean: unknown = "fine";
    for (let level = 0; level < 100_000; level++) clean = { a: clean };
    expect(unstorableTextPath(clean)).toBeUndefined();
  });
});
