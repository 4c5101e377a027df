import { describe, expect, it } from "vitest";
import { MAX_PROVIDER_KEY_LENGTH, providerKeyProblem } from "./credential.js";

describe("providerKeyProblem", () => {
  it("accepts real key shapes", () => {
    for (const key of ["sk-proj-abc_DEF-123", "sk-ant-api03-xyz", "AIzaSyA-b_c", "gsk_x.y/z+w="]) {
      expect(providerKeyProblem(key)).toBeUndefined();
    }
  });

  it("refuses header injection and control characters without echoing the key", () => {
    for (const key of [
      "sk-a\r\nX-Evil: 1",
      "sk-a\nb",
      "sk-\u0000",
      "sk-\u001b[31m",
      "sk-\u007f",
      "sk-ключ",
    ]) {
      const problem = providerKeyProblem(key);
      expect(problem).toMatch(/printable ASCII/);
      expect(problem).not.toContain("sk-");
    }
  });

  it("bounds the length", () => {
    expect(providerKeyProblem("k".repeat(MAX_PROVIDER_KEY_LENGTH))).toBeUndefined();
    expect(providerKeyProblem("k".repeat(MAX_PROVIDER_KEY_LENGTH + 1))).toMatch(/at most 4096/);
    expect(providerKeyProblem("")).toBe("must not be empty");
  });
});
