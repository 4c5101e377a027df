import { describe, expect, it } from "vitest";
import { narrow } from "./authenticate.js";

describe("effective allow-lists", () => {
  it("is unrestricted only when neither the tenant nor the key restricts", () => {
    expect(narrow(null, null)).toBeUndefined();
  });

  it("takes whichever side restricts when only one does", () => {
    expect(narrow(null, ["openai"])).toEqual({ values: ["openai"] });
    expect(narrow(["openai", "groq"], null)).toEqual({ values: ["openai", "groq"] });
  });

  it("keeps only the key's entries inside the tenant scope", () => {
    expect(narrow(["openai"], ["openai", "anthropic"])).toEqual({ values: ["openai"] });
    expect(narrow(["openai"], ["anthropic"])).toEqual({ values: [] });
  });
});
